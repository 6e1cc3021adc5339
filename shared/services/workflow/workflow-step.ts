import { NotFoundError } from '../../domain/core/errors';
import type { ToolCall } from '../../domain/core/vocabulary';
import { flushMetrics, logger } from '../../observability';
import { isLostWriteRace } from '../../store/condition-failures';
import type { SessionRecord } from '../../store/sessions/records';
import * as z from '../../zod';
import type { SessionContext, SessionContextWith } from '../sessions/session-context';

/**
 * What every Task state of the workflow (infra/workflow/investigation.asl.json) shares: the error
 * mapping the state machine retries on, the session input and the reads of the session and its
 * recorded tool calls. Each step's logic is its own module (step-mark-active.ts, step-run-tool.ts,
 * step-assess.ts, step-persist.ts, ended-runs.ts for the failure write-back), so a step Lambda
 * bundles only its own step: the write-back never carries the tools, Persist never the personas.
 *
 * Every write is conditioned on the session's status (session-status.ts), so a step that runs late
 * (after a cancel, a failure or a duplicate delivery) changes nothing, and every step is safe to
 * retry: MarkActive accepts an already active session, a tool's result is recorded once, Persist
 * finds a completed session and stops.
 *
 * State payloads stay small: tool outputs go to DynamoDB, the state carries one compact line per
 * tool, and the report (bounded by the domain) is the largest thing passed between states.
 */

/** Errors the state machine retries (its Retry lists `TransientError`). */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

/** The session ended (canceled, failed) before this step could do its work. */
export class SessionEndedError extends Error {
  override readonly name = 'SessionEnded';
}

const TRANSIENT = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionConflictException',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
]);

/**
 * Maps store and network hiccups to TransientError so the workflow retries the step. A transaction
 * that lost a write race even after the store's own retries (many concurrent investigations writing
 * the same hot graph node or search term) is one too: steps are idempotent, so the workflow retries
 * the step later (1-7 s), which spreads the writers out. Conditions that encode a decision (a session
 * already ended) are handled inside the repositories and never reach here.
 */
export async function asStep<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    const code = (error as { code?: string } | null)?.code ?? '';
    logger.error('workflow step failed', { step, error: error as Error });
    // A session's end whose webhook event was not published (the outbox write failed) is retried:
    // the step finds the session ended and publishes again (webhook-events.ts).
    if (
      TRANSIENT.has(name) ||
      TRANSIENT.has(code) ||
      isLostWriteRace(error) ||
      name === 'PublishFailedError'
    ) {
      throw new TransientError(`${step}: ${name || code}`);
    }
    throw error;
  } finally {
    flushMetrics();
  }
}

export const SessionInput = /* @__PURE__ */ (() =>
  z.object({ session_id: z.string().check(z.minLength(1), z.maxLength(64)) }))();

export async function loadSession(ctx: SessionContext, sessionId: string): Promise<SessionRecord> {
  const session = await ctx.sessions.get(sessionId);
  if (!session) throw new NotFoundError(`No session ${sessionId}`);
  return session;
}

export async function recordedToolCalls(
  ctx: SessionContextWith<'toolResults'>,
  sessionId: string,
): Promise<ToolCall[]> {
  const results = await ctx.toolResults.list(sessionId);
  return results.map((r) => r.call);
}
