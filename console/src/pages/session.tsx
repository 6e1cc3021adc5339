import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, apiBlob } from '../api';
import { Badge, EntityText, ErrorNote, Loading, PageTitle } from '../components/common';
import { GraphPanel } from '../components/graph-panel';
import { attackHref, graphHref, incidentHref, sessionHref, when } from '../format';
import {
  type Finding,
  type HistoryEvent,
  type HistoryMessage,
  type ReportResponse,
  type SessionHistory,
  type SessionSummary,
  TERMINAL_STATUSES,
  type ToolCall,
} from '../types';

/** Poll every 1.5 s while the investigation runs (the public poll's advice is "every few seconds"). */
const POLL_MS = 1500;
const RETRY_MS = 5000;

type TimelineItem =
  | { kind: 'message'; id: string; at: string; message: HistoryMessage }
  | { kind: 'event'; id: string; at: string; event: HistoryEvent };

function mergeTimeline(previous: TimelineItem[], page: SessionHistory): TimelineItem[] {
  const seen = new Set(previous.map((item) => item.id));
  const added: TimelineItem[] = [
    ...page.messages.map((message) => ({
      kind: 'message' as const,
      id: message.message_id,
      at: message.created_at,
      message,
    })),
    ...page.events.map((event) => ({
      kind: 'event' as const,
      id: event.event_id,
      at: event.created_at,
      event,
    })),
  ].filter((item) => !seen.has(item.id));
  if (added.length === 0) return previous;
  // IDs carry the position in the history (m_000003, e_000004): order by it, time first.
  return [...previous, ...added].sort((a, b) => a.at.localeCompare(b.at) || position(a.id) - position(b.id));
}

function position(id: string): number {
  return Number(/\d+$/.exec(id)?.[0] ?? 0);
}

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

/** /sessions/{id}: follows a running investigation, then shows its report. */
export function SessionPage({ id }: { id: string }) {
  const [session, setSession] = useState<SessionSummary | null>(null);
  const [timeline, setTimeline] = useState<TimelineItem[]>([]);
  const [toolCalls, setToolCalls] = useState<ToolCall[]>([]);
  const [report, setReport] = useState<ReportResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pollNow, setPollNow] = useState(0);
  const cursor = useRef<string | null>(null);

  useEffect(() => {
    cursor.current = null;
    setSession(null);
    setTimeline([]);
    setToolCalls([]);
    setReport(null);
    setError(null);
  }, [id]);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (): Promise<void> => {
      try {
        const page = await api<SessionHistory>('GET', `/sessions/${encodeURIComponent(id)}`, {
          query: { after: cursor.current },
        });
        if (!live) return;
        cursor.current = page.next_cursor ?? cursor.current;
        setError(null);
        setSession(page.session);
        setTimeline((previous) => mergeTimeline(previous, page));
        if (page.tool_calls.length > 0) {
          setToolCalls((previous) => {
            const known = new Set(previous.map((call) => call.tool_call_id));
            return [...previous, ...page.tool_calls.filter((call) => !known.has(call.tool_call_id))];
          });
        }
        if (page.has_more) return poll();
        if (TERMINAL_STATUSES.includes(page.session.status)) {
          const answer = await api<ReportResponse>('GET', `/sessions/${encodeURIComponent(id)}/report`);
          if (live) setReport(answer);
          return;
        }
        timer = setTimeout(poll, POLL_MS);
      } catch (caught) {
        if (!live) return;
        setError(caught);
        // A missing or forbidden session will not appear by asking again.
        if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500) return;
        timer = setTimeout(poll, RETRY_MS);
      }
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, pollNow]);

  const running = session !== null && !TERMINAL_STATUSES.includes(session.status);

  return (
    <>
      <PageTitle>{session ? `Investigation of ${session.entity.value}` : `Investigation ${id}`}</PageTitle>
      <ErrorNote error={error} />
      {!session && !error && <Loading what="the investigation" />}
      {session && (
        <SessionHeader session={session} running={running} onCanceled={() => setPollNow((n) => n + 1)} />
      )}
      {session && report?.report && <ReportView report={report} />}
      {session && report && !report.report && session.status === 'failed' && (
        <p class="error">
          The investigation failed: {report.failure_reason ?? session.failure_reason ?? 'no reason recorded'}.
        </p>
      )}
      {session && (
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
                        <span class="message">{item.message.content}</span>
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
      )}
    </>
  );
}

function SessionHeader({
  session,
  running,
  onCanceled,
}: {
  session: SessionSummary & { tlp?: string };
  running: boolean;
  onCanceled: () => void;
}) {
  const [canceling, setCanceling] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const cancel = async () => {
    setCanceling(true);
    setError(null);
    try {
      await api('POST', `/sessions/${encodeURIComponent(session.session_id)}/cancel`);
    } catch (caught) {
      // 409: it ended meanwhile; the next poll shows how.
      if (!(caught instanceof ApiError && caught.status === 409)) setError(caught);
    } finally {
      setCanceling(false);
      onCanceled();
    }
  };
  return (
    <section class="panel" aria-label="Session">
      <dl class="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <span role="status">
              <Badge kind={session.status}>{session.status}</Badge>
            </span>
            {running && <span class="muted"> · updating live</span>}
          </dd>
        </div>
        <div>
          <dt>Entity</dt>
          <dd>
            <a href={graphHref(session.entity)}>
              <EntityText type={session.entity.type} value={session.entity.value} />
            </a>
          </dd>
        </div>
        <div>
          <dt>Persona</dt>
          <dd>{session.persona}</dd>
        </div>
        {session.tlp && (
          <div>
            <dt>TLP</dt>
            <dd>
              <Badge kind={`tlp-${session.tlp.replace('+', '-')}`}>TLP:{session.tlp.toUpperCase()}</Badge>
            </dd>
          </div>
        )}
        <div>
          <dt>Started</dt>
          <dd>{when(session.created_at)}</dd>
        </div>
        {session.completed_at && (
          <div>
            <dt>Ended</dt>
            <dd>{when(session.completed_at)}</dd>
          </div>
        )}
        <div>
          <dt>Session ID</dt>
          <dd>
            <code>{session.session_id}</code>
          </dd>
        </div>
      </dl>
      {running && (
        <button type="button" class="danger" onClick={cancel} disabled={canceling}>
          {canceling ? 'Canceling…' : 'Cancel investigation'}
        </button>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

function ToolCallTable({ calls }: { calls: ToolCall[] }) {
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

/** Evidence items that name an incident or a session link to their pages. */
function EvidenceItem({ value }: { value: string }) {
  if (/^inc_[a-z0-9]+$/i.test(value)) return <a href={incidentHref(value)}>{value}</a>;
  if (/^s_[A-Z0-9]+$/i.test(value)) return <a href={sessionHref(value)}>{value}</a>;
  return <code>{value}</code>;
}

function FindingView({ finding }: { finding: Finding & { sources?: unknown } }) {
  const sources = Array.isArray(finding.sources) ? finding.sources : [];
  return (
    <article class="finding" aria-labelledby={`f-${finding.finding_id}`}>
      <h3 id={`f-${finding.finding_id}`}>
        <Badge kind={finding.severity}>{finding.severity}</Badge> {finding.title}
      </h3>
      <p>{finding.description}</p>
      <p class="muted">{finding.impact}</p>
      <dl class="facts">
        <div>
          <dt>Score</dt>
          <dd>{finding.score}</dd>
        </div>
        <div>
          <dt>Category</dt>
          <dd>{finding.category.replace(/_/g, ' ')}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            <code>{finding.source_tool}</code>
            {sources.map((source, index) => (
              <span key={index}>, {typeof source === 'string' ? source : sourceLabel(source)}</span>
            ))}
          </dd>
        </div>
      </dl>
      {finding.evidence.length > 0 && (
        <>
          <h4>Evidence</h4>
          <ul class="evidence">
            {finding.evidence.map((value) => (
              <li key={value}>
                <EvidenceItem value={value} />
              </li>
            ))}
          </ul>
        </>
      )}
      {finding.attack && finding.attack.length > 0 && (
        <ul class="tags" aria-label="MITRE ATT&CK techniques">
          {finding.attack.map((technique) => (
            <li key={technique.id}>
              <a href={attackHref(technique.id)} target="_blank" rel="noopener noreferrer">
                {technique.id} {technique.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function sourceLabel(source: unknown): string {
  if (source && typeof source === 'object') {
    const record = source as Record<string, unknown>;
    return String(record.name ?? record.provider ?? record.connector ?? JSON.stringify(source));
  }
  return String(source);
}

function ReportView({ report: answer }: { report: ReportResponse }) {
  const report = answer.report!;
  const related = report.entities.filter((entity) => entity.role === 'related');
  const attributes = Object.entries(
    report.entities.find((entity) => entity.role === 'investigated')?.attributes ?? {},
  ).filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object');
  const explanation = report.score_explanation;
  return (
    <section aria-labelledby="report-heading">
      <h2 id="report-heading">Report</h2>
      <div class="panel score">
        <p>
          Verdict <Badge kind={report.verdict}>{report.verdict}</Badge>
        </p>
        <p>
          Risk score <strong class="risk">{report.risk_score}</strong>
          <span class="muted"> / 100</span>
        </p>
        <p class="muted">
          {report.coverage.tools_succeeded} of {report.coverage.tools_run} tools completed
          {report.coverage.tools_failed.length > 0 && `; failed: ${report.coverage.tools_failed.join(', ')}`}
          {report.coverage.tools_timed_out.length > 0 &&
            `; timed out: ${report.coverage.tools_timed_out.join(', ')}`}
        </p>
        <StixLink sessionId={answer.session_id} />
      </div>
      <h3>Summary</h3>
      <p class="summary">{report.summary}</p>
      {attributes.length > 0 && (
        <>
          <h3>About {answer.entity.value}</h3>
          <dl class="facts">
            {attributes.map(([name, value]) => (
              <div key={name}>
                <dt>{name.replace(/_/g, ' ')}</dt>
                <dd>{typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)}</dd>
              </div>
            ))}
          </dl>
        </>
      )}
      {explanation && explanation.contributions.length > 0 && (
        <>
          <h3>Why this score</h3>
          <p>
            {explanation.verdict_reason}. <span class="muted">{explanation.formula}</span>
          </p>
          <table>
            <caption class="visually-hidden">Points each finding added to the risk score</caption>
            <thead>
              <tr>
                <th scope="col">Finding</th>
                <th scope="col">Source</th>
                <th scope="col">Score</th>
                <th scope="col">Points added</th>
              </tr>
            </thead>
            <tbody>
              {explanation.contributions.map((c) => (
                <tr key={c.finding_id}>
                  <td>{c.title}</td>
                  <td>
                    <code>{c.source_tool}</code>
                  </td>
                  <td>{c.score}</td>
                  <td>{c.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {report.recommendations.length > 0 && (
        <>
          <h3>Recommendations</h3>
          <ul>
            {report.recommendations.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </>
      )}
      <h3>Findings ({report.findings.length})</h3>
      {report.findings.length === 0 && <p>No findings.</p>}
      {report.findings.map((finding) => (
        <FindingView key={finding.finding_id} finding={finding} />
      ))}
      <h3>Related entities ({related.length})</h3>
      {related.length === 0 ? (
        <p>No related entities.</p>
      ) : (
        <table>
          <caption class="visually-hidden">Entities related to the investigated entity</caption>
          <thead>
            <tr>
              <th scope="col">Entity</th>
              <th scope="col">Relationship</th>
              <th scope="col">Evidence</th>
            </tr>
          </thead>
          <tbody>
            {related.map((entity) => (
              <tr key={`${entity.type}:${entity.value}`}>
                <td>
                  <a href={graphHref(entity)}>
                    <EntityText type={entity.type} value={entity.value} />
                  </a>
                </td>
                <td>{entity.relationship?.replace(/_/g, ' ') ?? '—'}</td>
                <td>
                  {(entity.evidence ?? []).map((value, index) => (
                    <span key={value}>
                      {index > 0 && ', '}
                      <EvidenceItem value={value} />
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Neighbourhood of {answer.entity.value}</h3>
      <GraphPanel entity={answer.entity} />
    </section>
  );
}

/** The STIX 2.1 export needs the sign-in token, so it is fetched and handed over as a file. */
function StixLink({ sessionId }: { sessionId: string }) {
  const [state, setState] = useState<'idle' | 'busy' | 'missing'>('idle');
  const [error, setError] = useState<unknown>(null);
  const download = async () => {
    setState('busy');
    setError(null);
    try {
      const blob = await apiBlob(`/sessions/${encodeURIComponent(sessionId)}/stix`);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${sessionId}.stix.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState('idle');
    } catch (caught) {
      if (caught instanceof ApiError && caught.status === 404) setState('missing');
      else {
        setError(caught);
        setState('idle');
      }
    }
  };
  if (state === 'missing') return <p class="muted">No STIX export is available for this investigation.</p>;
  return (
    <>
      <button type="button" class="secondary" onClick={download} disabled={state === 'busy'}>
        Download STIX 2.1 bundle
      </button>
      <ErrorNote error={error} />
    </>
  );
}
