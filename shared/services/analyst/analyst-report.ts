import { analystSection } from '../../domain/analyst';
import type { Report } from '../../domain/core/vocabulary';
import { event, type SessionContextWith } from '../sessions/session-context';

/**
 * The analyst's part of the report (bedrock mode), written by Assess from the conversation the
 * AnalystTurn steps stored (analyst-steps.ts): apart from the turns, so Assess carries neither the
 * model client nor the tools offered to the model.
 *
 * Assess in bedrock mode: the rules report gains `analyst` (who wrote the narrative, usage, cost);
 * with the model's narrative the summary and closing message are the model's, the score, verdict,
 * findings and recommendations stay the rules engine's. A fallback decided here (the conversation
 * never finished, or its narrative contradicts the verdict) is recorded as an event.
 */
export async function withAnalyst(
  ctx: SessionContextWith<'analystState' | 'history'>,
  sessionId: string,
  report: Report,
): Promise<Report> {
  const stored = await ctx.analystState.get(sessionId);
  const conversation = stored?.conversation;
  const { section, fallback: fellBack } = analystSection(
    conversation,
    report,
    ctx.cfg.SIS_BEDROCK_MODEL_ID ?? '',
  );
  if (fellBack && !fellBack.recorded) {
    await ctx.history.append(sessionId, [
      event(ctx.now(), 'analyst_fallback', {
        reason: fellBack.reason,
        ...(fellBack.detail ? { detail: fellBack.detail } : {}),
      }),
    ]);
  }
  if (section.mode !== 'bedrock') return { ...report, analyst: section };
  const headline = report.summary.split('\n')[0] ?? '';
  return { ...report, summary: `${headline}\n${section.narrative}`, analyst: section };
}
