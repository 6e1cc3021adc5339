import { type Entity, type EntityInput, entityKey } from '../core/entity';
import { normaliseEntity } from '../core/entity-normalisation';
import { type ErrorDetail, ValidationError } from '../core/errors';
import { isTerminal, SESSION_STATUSES, type SessionStatus } from '../core/session-status';

/**
 * Batches (docs/soar.md, "Batches"): one call starts an investigation of each of 1-100 entities, the
 * same entity twice being investigated once; the batch's status is read back in one call. The rules
 * here are pure: which entities a batch holds, and what its status and counts are.
 */
export const MAX_BATCH_ENTITIES = 100;

/** An entry of a stored batch: an entity and its session, or the reason it was not started. */
export type BatchEntry =
  | { entity: Entity; session_id: string }
  | { entity: Entity; error: { code: string; message: string } };

export interface BatchRecord {
  batch_id: string;
  owner_key_id: string;
  created_at: string;
  entries: BatchEntry[];
}

/**
 * The distinct entities of a batch request, in their first order, each normalised. Any entity that
 * is not one is a 400 naming every bad one (nothing is started): a playbook sending a malformed list
 * hears it at once rather than finding a partial batch.
 */
export function batchEntities(inputs: readonly EntityInput[]): Entity[] {
  if (inputs.length === 0 || inputs.length > MAX_BATCH_ENTITIES) {
    throw new ValidationError(
      `A batch holds 1 to ${MAX_BATCH_ENTITIES} entities; this one has ${inputs.length}.`,
      [{ path: 'entities', message: `must hold 1 to ${MAX_BATCH_ENTITIES} entities` }],
    );
  }
  const problems: ErrorDetail[] = [];
  const distinct = new Map<string, Entity>();
  inputs.forEach((input, index) => {
    try {
      const entity = normaliseEntity(input, `entities.${index}`);
      if (!distinct.has(entityKey(entity))) distinct.set(entityKey(entity), entity);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.push(...(error.details ?? [{ path: `entities.${index}`, message: error.message }]));
    }
  });
  if (problems.length > 0) {
    const summary = problems
      .slice(0, 5)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    throw new ValidationError(
      `Not every entity is valid; nothing was started. ${summary}`.slice(0, 1000),
      problems.slice(0, 100),
    );
  }
  return [...distinct.values()];
}

export type BatchCounts = Record<SessionStatus, number>;

/** The batch's sessions by status (every status named, zeros included); error entries are not counted. */
export function batchCounts(statuses: readonly SessionStatus[]): BatchCounts {
  const counts = Object.fromEntries(SESSION_STATUSES.map((status) => [status, 0])) as BatchCounts;
  for (const status of statuses) counts[status] += 1;
  return counts;
}

/** completed once every session of the batch has ended (an empty batch of errors too), else active. */
export function batchStatus(statuses: readonly SessionStatus[]): 'active' | 'completed' {
  return statuses.every(isTerminal) ? 'completed' : 'active';
}
