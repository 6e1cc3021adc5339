import { Badge, EntityText } from '../../components/common';
import { RecordTable } from '../../components/record-table';
import type { ToolCall } from '../../types';

export function ToolCallTable({ calls }: { calls: ToolCall[] }) {
  return (
    <RecordTable caption="Tool calls" captionShown columns={['Tool', 'Input', 'Status', 'Duration']}>
      {calls.map((call) => (
        <tr key={call.tool_call_id}>
          <td>
            <code>{call.name}</code>
          </td>
          <td>
            <EntityText type={call.input.entity.type} value={call.input.entity.value} />
          </td>
          <td>
            <Badge kind={call.status}>{call.status.replace('_', ' ')}</Badge>
            {call.error && <span class="muted"> {call.error}</span>}
          </td>
          <td>{call.duration_ms} ms</td>
        </tr>
      ))}
    </RecordTable>
  );
}
