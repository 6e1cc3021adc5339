import { Badge, EntityText } from '../../components/common';
import { RecordTable } from '../../components/record-table';
import type { ToolCall } from '../../types';

/** The raw output a cell shows at most: a tool's facts can be long (a feed's whole entry, passive DNS). */
export const RAW_OUTPUT_MAX_CHARS = 8000;

export function ToolCallTable({ calls }: { calls: ToolCall[] }) {
  return (
    <RecordTable
      caption="Tool calls"
      captionShown
      columns={['Tool', 'Input', 'Status', 'Duration', 'Raw output']}
    >
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
          <td>
            <RawOutput call={call} />
          </td>
        </tr>
      ))}
    </RecordTable>
  );
}

/** The tool's output as it returned it, collapsed until asked for and cut at RAW_OUTPUT_MAX_CHARS. */
function RawOutput({ call }: { call: ToolCall }) {
  if (!call.output) return <span class="muted">—</span>;
  const text = JSON.stringify(call.output, null, 2);
  const cut = text.length > RAW_OUTPUT_MAX_CHARS;
  return (
    <details class="raw-output">
      <summary>
        Raw output<span class="visually-hidden"> of {call.name}</span>
      </summary>
      <pre>
        {cut ? text.slice(0, RAW_OUTPUT_MAX_CHARS) : text}
        {cut && `\n… ${text.length - RAW_OUTPUT_MAX_CHARS} more characters (the session's history has all)`}
      </pre>
    </details>
  );
}
