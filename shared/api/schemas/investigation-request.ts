import { MAX_ENTITY_VALUE_LENGTH } from '../../domain/core/entity';
import { normaliseEntity } from '../../domain/core/entity-normalisation';
import { ValidationError } from '../../domain/core/errors';
import { DEFAULT_TLP, TLP_LEVELS } from '../../domain/core/tlp';
import { PERSONA_NAMES } from '../../domain/core/vocabulary';
import { batchEntities, MAX_BATCH_ENTITIES } from '../../domain/investigation/batch';
import { personaChoices, personaNamed } from '../../domain/investigation/report/persona-names';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Entity, EntityType, SessionId } from './common';
import { SessionStatus, Verdict } from './search';

/**
 * The start request of an investigation: the entity, the persona, the TLP and the run options.
 *
 * Unknown request fields are ignored (stripped), not rejected: models sometimes add a field of
 * their own (a "question" or "context"), and failing the whole investigation for that would help
 * nobody. Every field the service does read is validated strictly.
 */

export const PersonaName = /* @__PURE__ */ (() =>
  withMeta(z.enum(PERSONA_NAMES), {
    id: 'PersonaName',
    description: 'Canonical persona name',
    example: 'SOC Analyst',
  }))();

export const Tlp = /* @__PURE__ */ (() =>
  withMeta(z.enum(TLP_LEVELS), {
    id: 'Tlp',
    description:
      'Traffic Light Protocol 2.0 level: clear, green, amber, amber+strict or red (most restrictive)',
    example: 'amber',
  }))();

export const EntityInput = /* @__PURE__ */ (() =>
  withMeta(
    z.union([
      withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_ENTITY_VALUE_LENGTH)), {
        description: 'The bare value; its type is inferred',
        example: '203.0.113.7',
      }),
      withMeta(
        z.object({
          type: withMeta(z.optional(EntityType), {
            description: 'ip, user, host or domain; inferred from the value when omitted',
          }),
          value: withMeta(z.string().check(z.minLength(1), z.maxLength(MAX_ENTITY_VALUE_LENGTH)), {
            description: 'The entity value, e.g. an IP, user, host name or domain',
            example: 'paypa1-login.com',
          }),
        }),
        { description: 'The value with its type' },
      ),
    ]),
    {
      id: 'EntityInput',
      description:
        'The entity to investigate: an object {"type","value"} or a bare string. Inference for a bare value: an IP address is an ip; a value with "@" or "\\" is a user (alice@corp.example, CORP\\alice); a dotted name under a public suffix (.com, .co.uk...) is a domain; anything else is a host. Send the type for a bare logon name (alice) or an internal name under a public suffix that is a host. Values are normalised (lowercase, IPv6 compressed, IDN to punycode). At most 256 characters.',
      example: { type: 'domain', value: 'paypa1-login.com' },
    },
  ))();

export const StartInvestigationRequest = /* @__PURE__ */ (() =>
  withMeta(
    z
      .object({
        entity: EntityInput,
        persona: withMeta(z.optional(z.string().check(z.trim(), z.maxLength(64))), {
          description: `Who the report is written for: ${personaChoices()}. Case-insensitive; aliases such as "soc", "ciso", "hunter" work. The persona changes the summary, messages and recommendations, never the score or verdict.`,
          example: 'SOC Analyst',
        }),
        background: withMeta(z._default(z.boolean(), false), {
          description:
            'false (default): wait and receive the full result in this response (can take minutes; allow up to 1860 s). true: return at once with session_id, run_id and session_url, then poll getSessionHistory until session.status is completed, failed or canceled.',
          example: false,
        }),
        include_tool_calls: withMeta(z._default(z.boolean(), false), {
          description:
            'Synchronous mode only: add tool_calls (each enrichment step with status and timing) to the result',
          example: false,
        }),
        include_raw_results: withMeta(z._default(z.boolean(), false), {
          description: "Synchronous mode only: add raw_results (each tool's raw facts) to the result",
          example: false,
        }),
        tlp: withMeta(z._default(Tlp, DEFAULT_TLP), {
          description:
            "TLP 2.0 marking of what is being investigated (default amber). It decides which outside intelligence sources may be asked: each source has a maximum TLP (third-party services amber, the tenant's own MISP red); above it the lookup is skipped and says why. red sends the entity to no third party.",
          example: 'amber',
        }),
        refresh_intel: withMeta(z._default(z.boolean(), false), {
          description:
            'true: ask the intelligence sources afresh instead of reusing a cached answer (each source caches answers per indicator for hours); costs quota. Admin keys and console admins only (403 for others)',
          example: false,
        }),
      })
      .check(
        z.superRefine((body, ctx) => {
          // Reported with the other field errors in one 400, at the exact path.
          const problems = (fn: () => unknown) => {
            try {
              fn();
            } catch (error) {
              if (!(error instanceof ValidationError)) throw error;
              for (const detail of error.details ?? []) {
                ctx.addIssue({ code: 'custom', path: detail.path.split('.'), message: detail.message });
              }
            }
          };
          problems(() => normaliseEntity(body.entity));
          problems(() => personaNamed(body.persona));
        }),
      ),
    {
      id: 'StartInvestigationRequest',
      description: 'Start an investigation of one entity. Unknown fields are ignored.',
      example: { entity: { type: 'ip', value: '203.0.113.7' }, persona: 'SOC Analyst', background: true },
    },
  ))();

// ---- Batches ----

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
