import { when } from '../../format';
import type { HistoryEvent, ToolCall } from '../../types';
import { ToolCallTable } from './tool-calls';
import type { TimelineItem } from './use-session-history';

function describeEvent(event: HistoryEvent): string {
  const d = event.detail;
  const tool = typeof d.tool === 'string' ? d.tool : undefined;
  const ms = typeof d.duration_ms === 'number' ? ` in ${d.duration_ms} ms` : '';
  switch (event.type) {
    case 'status_changed':
      return `Status changed to ${String(d.status ?? d.to ?? 'unknown')}`;
    case 'tool_started':
      return `Started ${tool ?? 'a tool'}`;
    case 'tool_succeeded':
      return `${tool ?? 'A tool'} succeeded${ms}${typeof d.findings === 'number' ? `, ${d.findings} finding(s)` : ''}`;
    case 'tool_failed':
      return `${tool ?? 'A tool'} failed${ms}${typeof d.error === 'string' ? `: ${d.error}` : ''}`;
    case 'tool_timed_out':
      return `${tool ?? 'A tool'} timed out${ms}`;
    case 'report_ready':
      return 'Report ready';
    default: {
      const facts = Object.entries(d)
        .filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value))
        .map(([name, value]) => `${name}: ${String(value)}`)
        .join(', ');
      return facts ? `${event.type.replace(/_/g, ' ')} (${facts})` : event.type.replace(/_/g, ' ');
    }
  }
}

/** What the investigation recorded, oldest first, announced as it grows; then its tool calls. */
export function Timeline({
  timeline,
  toolCalls,
  summary,
}: {
  timeline: TimelineItem[];
  toolCalls: ToolCall[];
  /** The report's summary: the closing message that repeats it links to the report instead. */
  summary?: string | undefined;
}) {
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <div role="log" aria-label="Investigation timeline" aria-live="polite">
        {timeline.length === 0 ? (
          <p class="muted">Nothing recorded yet.</p>
        ) : (
          <ol class="timeline">
            {timeline.map((item) => (
              <li key={item.id} class={`timeline-${item.kind}`}>
                <time dateTime={item.at}>{when(item.at).slice(11)}</time>{' '}
                {item.kind === 'message' ? (
                  <span>
                    <span class="visually-hidden">{item.message.role} message: </span>
                    {summary &&
                    item.message.role === 'assistant' &&
                    item.message.content.startsWith(summary) ? (
                      <span class="message">
                        Wrote the <a href="#report-heading">report</a> (summary and recommendations above)
                      </span>
                    ) : (
                      <span class="message">{item.message.content}</span>
                    )}
                  </span>
                ) : (
                  <span class="event">{describeEvent(item.event)}</span>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>
      {toolCalls.length > 0 && <ToolCallTable calls={toolCalls} />}
    </section>
  );
}
