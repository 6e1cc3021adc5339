import { isTerminal } from '../../../../shared/domain/core/session-status';
import { ErrorNote, Loading, PageTitle } from '../../components/common';
import { FeedbackControl } from './feedback-control';
import { ReportView } from './report-view';
import { SessionHeader } from './session-header';
import { Timeline } from './timeline';
import { useSessionHistory } from './use-session-history';

/** /sessions/{id}: follows a running investigation, then shows its report. */
export function SessionPage({ id }: { id: string }) {
  const { session, timeline, toolCalls, report, error, pollNow } = useSessionHistory(id);
  const running = session !== null && !isTerminal(session.status);

  return (
    <>
      <PageTitle>{session ? `Investigation of ${session.entity.value}` : `Investigation ${id}`}</PageTitle>
      <ErrorNote error={error} />
      {!session && !error && <Loading what="the investigation" />}
      {session && <SessionHeader session={session} running={running} onCanceled={pollNow} />}
      {session && report?.report && <ReportView report={report} />}
      {session && report?.report && (
        <FeedbackControl sessionId={session.session_id} verdict={report.report.verdict} />
      )}
      {session && report && !report.report && session.status === 'failed' && (
        <p class="error">
          The investigation failed: {report.failure_reason ?? session.failure_reason ?? 'no reason recorded'}.
        </p>
      )}
      {session && <Timeline timeline={timeline} toolCalls={toolCalls} summary={report?.report?.summary} />}
    </>
  );
}
