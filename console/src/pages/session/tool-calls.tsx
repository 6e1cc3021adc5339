import { Badge, EntityText } from '../../components/common';
import type { ToolCall } from '../../types';

export function ToolCallTable({ calls }: { calls: ToolCall[] }) {
  return (
    <table>
      <caption>Tool calls</caption>
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Input</th>
          <th scope="col">Status</th>
          <th scope="col">Duration</th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  );
}
