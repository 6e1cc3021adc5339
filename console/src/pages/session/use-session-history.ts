import { useEffect, useRef, useState } from 'preact/hooks';
import { isTerminal } from '../../../../shared/domain/core/session-status';
import { ApiError, api } from '../../api';
import type {
  HistoryEvent,
  HistoryMessage,
  ReportResponse,
  SessionHistory,
  SessionSummary,
  ToolCall,
} from '../../types';

/** Poll every 1.5 s while the investigation runs (the public poll's advice is "every few seconds"). */
const POLL_MS = 1500;
const RETRY_MS = 5000;

export type TimelineItem =
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

export interface FollowedSession {
  session: SessionSummary | null;
  timeline: TimelineItem[];
  toolCalls: ToolCall[];
  /** The report answer, once the session has ended. */
  report: ReportResponse | null;
  error: unknown;
  /** Polls at once (after a cancel) instead of at the next tick. */
  pollNow: () => void;
}

/**
 * Follows a session: pages through its history from the last cursor while it runs, then reads its
 * report once it has ended. A client error (missing, forbidden session) stops the polling; anything
 * else is retried after RETRY_MS.
 */
export function useSessionHistory(id: string): FollowedSession {
  const [session, setSession] = useState<SessionSummary | null>(null);
  const [timeline, setTimeline] = useState<TimelineItem[]>([]);
  const [toolCalls, setToolCalls] = useState<ToolCall[]>([]);
  const [report, setReport] = useState<ReportResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
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
        if (isTerminal(page.session.status)) {
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
  }, [id, round]);

  return { session, timeline, toolCalls, report, error, pollNow: () => setRound((n) => n + 1) };
}
