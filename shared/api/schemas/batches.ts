import { ValidationError } from '../../domain/core/errors';
import { DEFAULT_TLP } from '../../domain/core/tlp';
import { batchEntities, MAX_BATCH_ENTITIES } from '../../domain/investigation/batch';
import { personaNamed } from '../../domain/investigation/report/persona-names';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Entity, SessionId } from './common';
import { EntityInput, Tlp } from './investigation-request';
import { SessionStatus, Verdict } from './search';

/** Batches of investigations (docs/soar.md, "Batches"). */

const EXAMPLE_BATCH_ID = 'b_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';

export const BatchParams = /* @__PURE__ */ (() =>
  z.object({
    batch_id: withMeta(
      z
        .string()
        .check(z.regex(/^b_[A-Za-z0-9]{8,64}$/, 'must be a batch ID as returned by startInvestigationBatch')),
      {
        description: 'Batch ID returned when the batch started',
        example: EXAMPLE_BATCH_ID,
      },
    ),
  }))();

export const StartInvestigationBatchRequest = /* @__PURE__ */ (() =>
  withMeta(
    z
      .object({
        entities: withMeta(z.array(EntityInput).check(z.minLength(1), z.maxLength(MAX_BATCH_ENTITIES)), {
          description: `1 to ${MAX_BATCH_ENTITIES} entities; the same entity twice (after normalisation) is investigated once`,
        }),
        persona: withMeta(z.optional(z.string().check(z.trim(), z.maxLength(64))), {
          description: 'The persona of every report of the batch (as for startInvestigation)',
          example: 'SOC Analyst',
        }),
        tlp: withMeta(z._default(Tlp, DEFAULT_TLP), {
          description:
            'TLP 2.0 marking of every entity of the batch (default amber; as for startInvestigation)',
          example: 'amber',
        }),
      })
      .check(
        z.superRefine((body, ctx) => {
          // Every bad entity in one 400, each at its path; nothing is started.
          for (const check of [() => batchEntities(body.entities), () => personaNamed(body.persona)]) {
            try {
              check();
            } catch (error) {
              if (!(error instanceof ValidationError)) throw error;
              for (const detail of error.details ?? []) {
                ctx.addIssue({ code: 'custom', path: detail.path.split('.'), message: detail.message });
              }
            }
          }
        }),
      ),
    {
      id: 'StartInvestigationBatchRequest',
      example: { entities: [{ type: 'ip', value: '203.0.113.7' }, 'paypa1-login.com'] },
    },
  ))();

const EntryError = /* @__PURE__ */ (() =>
  z.object({
    code: withMeta(z.string(), {
      description: 'The error code a single start would have answered',
      example: 'rate_limited',
    }),
    message: z.string(),
  }))();

export const StartInvestigationBatchResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      batch_id: withMeta(z.string(), { example: EXAMPLE_BATCH_ID }),
      sessions: withMeta(
        z.array(
          z.union([
            z.object({ entity: Entity, session_id: SessionId, session_url: z.string() }),
            z.object({ entity: Entity, error: EntryError }),
          ]),
        ),
        {
          description:
            'One entry per distinct entity, in the order sent: its session, or why it was not started',
        },
      ),
    }),
    {
      id: 'StartInvestigationBatchResponse',
      description:
        'The batch runs in the background: poll getInvestigationBatch (the Location header) every Retry-After seconds until status is completed.',
    },
  ))();

export const InvestigationBatchResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      batch_id: z.string(),
      status: withMeta(z.enum(['active', 'completed']), {
        description: 'completed once every session of the batch has ended',
      }),
      counts: withMeta(z.record(SessionStatus, z.number().check(z.int(), z.gte(0))), {
        description: "The batch's sessions by status (entities that were not started are not counted)",
        example: { initialized: 0, active: 1, completed: 2, failed: 0, canceled: 0 },
      }),
      sessions: z.array(
        z.object({
          session_id: SessionId,
          entity: Entity,
          status: SessionStatus,
          verdict: z.optional(Verdict),
          risk_score: z.optional(z.number().check(z.gte(0), z.lte(100))),
        }),
      ),
    }),
    { id: 'InvestigationBatchResponse', description: 'A batch and the status of each of its sessions' },
  ))();
