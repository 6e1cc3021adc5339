import { MAX_ENTITY_VALUE_LENGTH } from '../../domain/core/entity';
import { normaliseEntity } from '../../domain/core/entity-normalisation';
import { ValidationError } from '../../domain/core/errors';
import { DEFAULT_TLP, TLP_LEVELS } from '../../domain/core/tlp';
import { personaChoices, personaNamed } from '../../domain/investigation/personas/persona-names';
import {
  CONFIDENCES,
  FINDING_CATEGORIES,
  FINDING_SEVERITIES,
  PERSONA_NAMES,
  TOOL_CALL_STATUSES,
  TOOL_NAMES,
} from '../../domain/investigation/types';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Cursor, Entity, EntityType, IsoDateTime, SessionId, Truncated } from './common';
import { SessionStatus, Verdict } from './search';

/**
 * Schemas of the investigation endpoints (start, poll, report, cancel). An assistant platform's
 * model reads these descriptions in the OpenAPI document to build calls, so they say what to send
 * and what comes back in plain words.
 *
 * Unknown request fields are ignored (stripped), not rejected: models sometimes add a field of
 * their own (a "question" or "context"), and failing the whole investigation for that would help
 * nobody. Every field the service does read is validated strictly.
 */

export { SessionStatus, Verdict };

export const Confidence = /* @__PURE__ */ (() =>
  withMeta(z.enum(CONFIDENCES), {
    id: 'Confidence',
    description: 'How many independent sources stand behind the verdict: low, medium, high',
    example: 'medium',
  }))();

const EXAMPLE_SESSION_ID = 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';
const EXAMPLE_RUN_ID = 'r_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';
const EXAMPLE_SESSION_URL = `https://sis.example.com/sessions/${EXAMPLE_SESSION_ID}`;

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
            'true: ask the intelligence sources afresh instead of reusing a cached answer (each source caches answers per indicator for hours); costs quota',
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

export const AttackTechnique = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      id: withMeta(z.string().check(z.regex(/^T\d{4}(\.\d{3})?$/)), {
        description: 'MITRE ATT&CK technique or sub-technique ID',
        example: 'T1583.001',
      }),
      name: withMeta(z.string(), {
        description: 'Technique name as MITRE ATT&CK gives it (sub-techniques as "Parent: Sub-technique")',
        example: 'Acquire Infrastructure: Domains',
      }),
    }),
    {
      id: 'AttackTechnique',
      description:
        'A MITRE ATT&CK® technique. © The MITRE Corporation; reproduced and distributed with the permission of The MITRE Corporation.',
    },
  ))();

export const Finding = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      finding_id: withMeta(z.string(), {
        description: 'Stable within the report',
        example: 'domain_analysis:typosquat:paypal.com',
      }),
      title: withMeta(z.string(), {
        description: 'One-line statement of the finding',
        example: 'Look-alike spelling of PayPal (paypal.com)',
      }),
      description: withMeta(z.string(), { description: 'Technical explanation for analysts' }),
      impact: withMeta(z.string(), { description: 'The same finding in plain business language' }),
      severity: withMeta(z.enum(FINDING_SEVERITIES), {
        description: 'Derived from score: 0 info, 1-24 low, 25-49 medium, 50-79 high, 80-100 critical',
        example: 'high',
      }),
      score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
        description: "This finding's contribution to the risk score (0-100)",
        example: 75,
      }),
      source_tool: withMeta(z.enum(TOOL_NAMES), {
        description: 'The tool that produced it',
        example: 'domain_analysis',
      }),
      category: withMeta(z.enum(FINDING_CATEGORIES), {
        description: 'What kind of risk the finding is about',
        example: 'impersonation',
      }),
      evidence: withMeta(z.array(z.string()), {
        description: 'Values, incident IDs or session IDs that support the finding',
        example: ['paypa1-login.com', 'paypal.com'],
      }),
      attack: withMeta(z.optional(z.array(AttackTechnique)), {
        description:
          'MITRE ATT&CK techniques the finding points to, from a curated table or from an intelligence source; absent when none applies',
        example: [
          { id: 'T1583.001', name: 'Acquire Infrastructure: Domains' },
          { id: 'T1566', name: 'Phishing' },
        ],
      }),
      source_verdict: withMeta(z.optional(Verdict), {
        description:
          "On findings of intel_* tools: that intelligence source's own normalised verdict (malicious, suspicious, benign, or unknown when the source does not know the indicator)",
        example: 'malicious',
      }),
      benign: withMeta(z.optional(z.literal(true)), {
        description:
          "Positive evidence that the entity is benign (score 0): the tenant's allowlist, an analyst's false-positive feedback, a public resolver or content-delivery network, a popularity rank. Only such a finding makes a report benign.",
        example: true,
      }),
      evidence_source: withMeta(z.optional(z.string()), {
        description:
          'The independent source the finding rests on (feed:FEODO, intel:abuseipdb, tenant:allowlist, feedback, offline:asn...). Each source counts once in the risk score.',
        example: 'tenant:allowlist',
      }),
      discounted: withMeta(
        z.optional(
          z.object({
            score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
              description: 'The score it would have had',
              example: 70,
            }),
            reason: withMeta(z.string(), { description: 'Why it counts for less (or not at all)' }),
          }),
        ),
        {
          description:
            'The tool found this but does not count it in full: the score it would have had and why (a prior verdict is context; a neighbour risky only because of this entity)',
        },
      ),
    }),
    {
      id: 'Finding',
      description: 'One observation about the entity, with its weight in the risk score',
    },
  ))();

export const EntityAttributes = /* @__PURE__ */ (() =>
  withMeta(
    z.catchall(
      z.object({
        asn: withMeta(z.optional(z.nullable(z.number().check(z.int()))), {
          description: 'Public IP: the autonomous system announcing it (null when no AS announces it)',
          example: 15169,
        }),
        as_org: withMeta(z.optional(z.nullable(z.string())), {
          description: "Public IP: the autonomous system's organisation",
          example: 'Google LLC',
        }),
        country: withMeta(z.optional(z.nullable(z.string())), {
          description: 'Public IP: country of registration, ISO 3166-1 alpha-2',
          example: 'US',
        }),
        network_class: withMeta(z.optional(z.enum(['cloud', 'cdn', 'hosting', 'isp', 'unknown'])), {
          description:
            'Public IP: kind of network, from a curated list of major providers’ ASNs (unknown when not listed)',
          example: 'cloud',
        }),
        network_provider: withMeta(z.optional(z.string()), {
          description: 'Public IP: the listed provider',
          example: 'Google',
        }),
        mail_domain: withMeta(z.optional(z.string()), {
          description: 'User with an e-mail-style name, or a domain: the mail domain checked',
          example: 'mailinator.com',
        }),
        disposable_email: withMeta(z.optional(z.boolean()), {
          description: 'The mail domain is a disposable (throw-away) e-mail service',
          example: false,
        }),
        free_email: withMeta(z.optional(z.boolean()), {
          description: 'The mail domain is a free e-mail provider',
          example: false,
        }),
        account_kind: withMeta(z.optional(z.string()), {
          description: 'User: the kind of account its name suggests',
          example: 'standard',
        }),
      }),
      z.unknown(),
    ),
    {
      id: 'EntityAttributes',
      description:
        'Facts about the investigated entity from offline data (IP → ASN, AS organisation and country; mail-provider lists) and intelligence sources; other scalar keys may appear. Offline data: see docs/investigations.md for sources, dates and licences (CC BY 4.0: Route Views, DB-IP, NRO).',
      example: {
        asn: 15169,
        as_org: 'Google LLC',
        country: 'US',
        network_class: 'cloud',
        network_provider: 'Google',
      },
    },
  ))();

export const ReportEntity = /* @__PURE__ */ (() =>
  withMeta(
    z.extend(Entity, {
      role: withMeta(z.enum(['investigated', 'related']), {
        description:
          'investigated: the entity the investigation was started on; related: one found connected to it',
        example: 'related',
      }),
      relationship: withMeta(z.optional(z.string()), {
        description:
          'How it relates to the investigated entity: co_occurs_in_incident, subdomain_of, impersonates, alias_of, or a knowledge-graph relationship',
        example: 'impersonates',
      }),
      evidence: withMeta(z.optional(z.array(z.string())), {
        description:
          'Incident IDs behind the link. Session IDs are never listed: sessions are confidential to the key that started them.',
      }),
      attributes: z.optional(EntityAttributes),
    }),
    { id: 'ReportEntity', description: 'The investigated entity or one discovered to be related to it' },
  ))();

export const Coverage = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      tools_run: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Enrichment tools started',
        example: 5,
      }),
      tools_succeeded: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Tools that returned a result',
        example: 5,
      }),
      tools_failed: withMeta(z.array(z.enum(TOOL_NAMES)), { description: 'Tools that failed', example: [] }),
      tools_timed_out: withMeta(z.array(z.enum(TOOL_NAMES)), {
        description: 'Tools that ran out of time',
        example: [],
      }),
      intel_sources: withMeta(
        z.optional(
          z.object({
            answered: withMeta(z.array(z.string()), {
              description:
                'Intelligence sources that answered (a "not found" is an answer), by connector name',
              example: ['abuseipdb', 'greynoise'],
            }),
            cached: withMeta(z.array(z.string()), {
              description: 'Of those, the ones answered from the connector cache',
              example: ['greynoise'],
            }),
            skipped: withMeta(z.array(z.string()), {
              description:
                'Sources not asked (TLP, private or internal indicator, quota, open circuit): see the tool call',
              example: [],
            }),
            failed: withMeta(z.array(z.string()), {
              description: 'Sources that failed or timed out (the investigation goes on without them)',
              example: [],
            }),
          }),
        ),
        { description: 'Present when threat-intelligence connectors are configured' },
      ),
    }),
    {
      id: 'Coverage',
      description: 'Which enrichment tools completed; a verdict of unknown means too few did',
    },
  ))();

export const ScoreExplanation = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      method: withMeta(z.literal('noisy_or'), {
        description: 'How findings combine: independent evidence (noisy OR)',
      }),
      formula: withMeta(z.string(), {
        description: 'The risk formula',
        example: 'risk = round(100 × (1 − Π (1 − score_i / 100)))',
      }),
      risk_score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
        description: 'The report’s risk score',
        example: 86,
      }),
      verdict: Verdict,
      verdict_reason: withMeta(z.string(), {
        description: 'Why the verdict follows from the risk, the benign evidence and the coverage',
        example: 'risk 86 ≥ 70 → malicious',
      }),
      confidence: withMeta(z.optional(Confidence), {
        description: 'The report’s confidence (absent on reports stored before it existed)',
      }),
      verdict_sources: withMeta(z.optional(z.array(z.string())), {
        description: 'The independent sources behind the verdict (evidence_source, else the tool)',
        example: ['domain_analysis', 'incident_history'],
      }),
      discounted: withMeta(
        z.optional(
          z.array(
            z.object({
              finding_id: withMeta(z.string(), { description: 'The finding' }),
              title: withMeta(z.string(), { description: 'Its title' }),
              source_tool: withMeta(z.enum(TOOL_NAMES), { description: 'The tool that produced it' }),
              score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
                description: 'The score it would have had',
              }),
              counted: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
                description: 'The score it counts with (0 when left out)',
              }),
              reason: withMeta(z.string(), { description: 'Why' }),
            }),
          ),
        ),
        {
          description:
            'Evidence not counted, or counted for less, and why: a source already counted by another finding, a prior verdict (context unless a person confirmed it), a neighbour whose risk rests on this entity',
        },
      ),
      contributions: withMeta(
        z.array(
          z.object({
            finding_id: withMeta(z.string(), {
              description: 'The finding',
              example: 'domain_analysis:confusable_spelling:paypal.com',
            }),
            title: withMeta(z.string(), { description: 'Its title' }),
            source_tool: withMeta(z.enum(TOOL_NAMES), { description: 'The tool or source that produced it' }),
            score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
              description: 'The finding’s own score',
              example: 75,
            }),
            points: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
              description:
                'Points of the risk score it added, findings taken strongest first (each adds score × what was still unexplained); the points sum to risk_score',
              example: 75,
            }),
          }),
        ),
        { description: 'Findings with a score above 0, strongest first' },
      ),
      sources: withMeta(
        z.array(
          z.object({
            source_tool: withMeta(z.enum(TOOL_NAMES), { description: 'The tool or intelligence source' }),
            findings: withMeta(z.number().check(z.int(), z.gte(0)), {
              description: 'Its findings that moved the score',
              example: 1,
            }),
            alone: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
              description: 'The risk its findings alone would give',
              example: 75,
            }),
            points: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
              description: 'Sum of its findings’ points',
              example: 75,
            }),
          }),
        ),
        { description: 'Per tool or source, most points first' },
      ),
    }),
    {
      id: 'ScoreExplanation',
      description:
        'Which findings and sources made the risk score and how much: risk = round(100 × (1 − Π(1 − score/100))) over the counted findings (each evidence source once); taken strongest first, each finding adds its score times the share not yet explained, so the points add up to risk_score. Verdict: benign when the tenant vouches for the entity (allowlist, false-positive feedback); else malicious at risk ≥ 70, suspicious at ≥ 30; else benign with positive evidence of benignness and at least 2 tools (and half) succeeded; else unknown.',
    },
  ))();

const EXAMPLE_REPORT = {
  summary:
    'MALICIOUS · risk 86/100 · domain paypa1-login.com\n2 indicators from 4/4 tools.\nIndicators:\n- [high 75] Look-alike spelling of PayPal (paypal.com) (domain_analysis)\n- [medium 45] Mentioned in 1 incident (1 high) (incident_history)',
  risk_score: 86,
  verdict: 'malicious',
  persona: 'SOC Analyst',
  entities: [
    {
      type: 'domain',
      value: 'paypa1-login.com',
      role: 'investigated',
      attributes: { mail_domain: 'paypa1-login.com', disposable_email: false, free_email: false },
    },
    { type: 'domain', value: 'paypal.com', role: 'related', relationship: 'impersonates', evidence: [] },
  ],
  findings: [
    {
      finding_id: 'domain_analysis:confusable_spelling:paypal.com',
      title: 'Look-alike spelling of PayPal (paypal.com)',
      description:
        'paypa1-login.com: token "paypa1" reads like "paypal". Not one of PayPal\'s known domains.',
      impact: 'The website address paypa1-login.com imitates PayPal.',
      severity: 'high',
      score: 75,
      source_tool: 'domain_analysis',
      category: 'impersonation',
      evidence: ['paypa1-login.com', 'paypal.com'],
      attack: [
        { id: 'T1583.001', name: 'Acquire Infrastructure: Domains' },
        { id: 'T1566', name: 'Phishing' },
      ],
    },
  ],
  recommendations: ['Block paypa1-login.com in DNS filtering and the web proxy.'],
  coverage: { tools_run: 4, tools_succeeded: 4, tools_failed: [], tools_timed_out: [] },
  score_explanation: {
    method: 'noisy_or',
    formula: 'risk = round(100 × (1 − Π (1 − score_i / 100)))',
    risk_score: 86,
    verdict: 'malicious',
    verdict_reason: 'risk 86 ≥ 70 → malicious',
    contributions: [
      {
        finding_id: 'domain_analysis:confusable_spelling:paypal.com',
        title: 'Look-alike spelling of PayPal (paypal.com)',
        source_tool: 'domain_analysis',
        score: 75,
        points: 75,
      },
      {
        finding_id: 'incident_history:incidents',
        title: 'Mentioned in 1 incident (1 high)',
        source_tool: 'incident_history',
        score: 45,
        points: 11,
      },
    ],
    sources: [
      { source_tool: 'domain_analysis', findings: 1, alone: 75, points: 75 },
      { source_tool: 'incident_history', findings: 1, alone: 45, points: 11 },
    ],
  },
};

export const AnalystReport = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      mode: withMeta(z.enum(['bedrock', 'rules']), {
        description: 'Who wrote the narrative: the model, or the rules engine after a fallback',
      }),
      configured_mode: withMeta(z.literal('bedrock'), { description: "The deployment's analyst mode" }),
      model_id: withMeta(z.string(), { description: 'Bedrock model or inference-profile ID' }),
      prompt_version: withMeta(z.nullable(z.string()), {
        description: 'Prompt files used, e.g. system@1+ciso@1',
      }),
      turns: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Model turns (Converse calls that answered)',
      }),
      tool_calls: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Lookups the model requested and got',
      }),
      input_tokens: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Input tokens over all turns',
      }),
      output_tokens: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'Output tokens over all turns',
      }),
      estimated_cost_usd: withMeta(z.nullable(z.number().check(z.gte(0))), {
        description: 'At on-demand list prices (price_source); null for a model not in the price table',
      }),
      price_source: withMeta(z.string(), { description: 'Where the prices behind the estimate come from' }),
      fallback_reason: withMeta(z.optional(z.string()), {
        description:
          'Why the rules narrative was used: model_error, model_timeout, model_throttled, malformed_tool_use, max_tokens, guardrail_intervened, budget_exhausted, no_report, invalid_report, narrative_contradicts_verdict, analyst_step_failed',
      }),
      narrative: withMeta(z.string(), {
        description: 'The narrative for the persona; every indicator in it is in the tool outputs',
      }),
      key_findings: withMeta(z.array(z.string()), { description: 'finding_id values the model put first' }),
      recommended_actions: withMeta(z.array(z.string()), {
        description: "The model's suggested actions, in addition to the computed recommendations",
      }),
      questions_for_human: withMeta(z.array(z.string()), {
        description: 'What a person must confirm or decide',
      }),
      removed_indicators: withMeta(z.array(z.string()), {
        description: 'Indicators the model named that no tool returned; removed from its text',
      }),
    }),
    {
      id: 'AnalystReport',
      description:
        'Bedrock analyst mode only (docs/analyst.md). The risk score, verdict, findings and recommendations are computed from tool evidence in every mode.',
    },
  ))();

export const Report = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      summary: withMeta(z.string(), {
        description: 'Summary written for the persona; show it to the user as is',
      }),
      risk_score: withMeta(z.number().check(z.int(), z.gte(0), z.lte(100)), {
        description:
          'Risk 0-100: the findings combined as independent evidence, 100 × (1 − Π(1 − score/100))',
        example: 86,
      }),
      verdict: withMeta(Verdict, {
        description:
          "malicious (risk ≥ 70), suspicious (≥ 30), benign only on positive evidence named in a finding (benign: true), unknown when no tool found evidence either way; the tenant's allowlist or an analyst's false-positive feedback makes it benign whatever the risk",
      }),
      confidence: withMeta(z.optional(Confidence), {
        description:
          'How many independent sources stand behind the verdict: low (one, or an unknown verdict), medium (two), high (three or more, or the tenant’s own word). Absent on reports stored before it existed.',
        example: 'medium',
      }),
      persona: PersonaName,
      entities: withMeta(z.array(ReportEntity), {
        description: 'The investigated entity first, then related ones',
      }),
      findings: withMeta(z.array(Finding), { description: 'Strongest first' }),
      recommendations: withMeta(z.array(z.string()), { description: 'Next steps, phrased for the persona' }),
      coverage: Coverage,
      score_explanation: z.optional(ScoreExplanation),
      analyst: z.optional(AnalystReport),
    }),
    { id: 'Report', description: 'The investigation report', example: EXAMPLE_REPORT },
  ))();

export const RelatedEntity = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      entity: Entity,
      relationship: withMeta(z.string(), {
        description: 'How it relates to the investigated entity (see ReportEntity.relationship)',
        example: 'impersonates',
      }),
      evidence: withMeta(z.array(z.string()), {
        description: 'Values, incident IDs or session IDs behind the link',
      }),
      known: withMeta(z.optional(z.boolean()), {
        description: 'The link was already in the knowledge graph',
      }),
    }),
    { id: 'RelatedEntity' },
  ))();

export const ToolOutput = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      facts: withMeta(z.record(z.string(), z.unknown()), { description: "The tool's raw facts" }),
      findings: withMeta(z.array(Finding), { description: "The tool's findings" }),
      related: withMeta(z.array(RelatedEntity), { description: 'Entities the tool found connected' }),
      attributes: withMeta(z.optional(z.record(z.string(), z.unknown())), {
        description: 'What the tool learned about the investigated entity itself (see EntityAttributes)',
      }),
    }),
    { id: 'ToolOutput' },
  ))();

export const ToolCall = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      tool_call_id: withMeta(z.string(), {
        description: 'Identifier of this step; events name it in detail.tool_call_id',
        example: 'tc_6f1c2a9e0b7d4c3e8f5a1b2c3d4e5f60',
      }),
      name: withMeta(z.enum(TOOL_NAMES), { description: 'The enrichment tool', example: 'domain_analysis' }),
      input: withMeta(z.object({ entity: Entity }), { description: 'What the tool was given' }),
      output: withMeta(z.optional(z.nullable(ToolOutput)), {
        description: 'The tool output when it succeeded; null otherwise (may be omitted in history)',
      }),
      status: withMeta(z.enum(TOOL_CALL_STATUSES), {
        description:
          'A failed or timed-out tool does not stop the investigation; the verdict reflects the coverage. skipped: deliberately not run (an intelligence source above the TLP, a private or internal indicator, quota spent, circuit open); error says why',
        example: 'succeeded',
      }),
      error: withMeta(z.optional(z.string()), {
        description: 'Why the tool did not succeed, or why it was skipped (safe to display)',
      }),
      started_at: withMeta(IsoDateTime, { description: 'When the tool started (UTC)' }),
      duration_ms: withMeta(z.number().check(z.int(), z.gte(0)), {
        description: 'How long the tool ran',
        example: 42,
      }),
      requested_by: withMeta(z.optional(z.literal('model')), {
        description: 'Present when the analyst model asked for this lookup (bedrock mode)',
      }),
      tool_use_id: withMeta(z.optional(z.string()), {
        description: "The model's tool use ID (bedrock mode)",
      }),
      turn: withMeta(z.optional(z.number().check(z.int(), z.gte(1))), {
        description: 'The model turn that asked for it',
      }),
      cached: withMeta(z.optional(z.boolean()), {
        description:
          'true: an intelligence answer served from the connector cache (start with refresh_intel: true to ask afresh)',
        example: true,
      }),
      cache_age_seconds: withMeta(z.optional(z.number().check(z.int(), z.gte(0))), {
        description: 'Age of the cached answer',
        example: 1800,
      }),
    }),
    {
      id: 'ToolCall',
      description:
        'One enrichment step of the investigation; output is null unless status is succeeded (history may omit it)',
    },
  ))();

export const RawResult = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      status: z.enum(TOOL_CALL_STATUSES),
      facts: z.nullable(z.record(z.string(), z.unknown())),
      error: z.optional(z.string()),
    }),
    { id: 'RawResult' },
  ))();

/** What both answers of a start name first: the session, its workflow run, its page and its status. */
const StartedSessionFields = /* @__PURE__ */ (() => ({
  session_id: SessionId,
  run_id: withMeta(z.string(), { description: 'Identifier of the workflow run', example: EXAMPLE_RUN_ID }),
  session_url: withMeta(z.string(), {
    description: 'Browser URL of the session',
    example: EXAMPLE_SESSION_URL,
  }),
  status: SessionStatus,
}))();

export const StartInvestigationAcceptedResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      ...StartedSessionFields,
      message: withMeta(z.optional(z.string()), {
        description:
          'Present when a synchronous start answers 202 because its wait bound passed: the investigation goes on, poll it',
      }),
    }),
    {
      id: 'StartInvestigationAcceptedResponse',
      description:
        'The investigation runs in the background: poll getSessionHistory with session_id every few seconds until session.status is completed, failed or canceled, then read the report with getInvestigationReport.',
      example: {
        session_id: EXAMPLE_SESSION_ID,
        run_id: EXAMPLE_RUN_ID,
        session_url: EXAMPLE_SESSION_URL,
        status: 'initialized',
      },
    },
  ))();

export const StartInvestigationResultResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      ...StartedSessionFields,
      // Not described here: a described wrapper would inline Report instead of referencing it.
      report: z.nullable(Report),
      failure_reason: withMeta(z.optional(z.string()), {
        description: 'Why the investigation failed, when it did',
      }),
      tool_calls: withMeta(z.optional(z.array(ToolCall)), {
        description: 'Only with include_tool_calls: true',
      }),
      raw_results: withMeta(z.optional(z.record(z.string(), RawResult)), {
        description: 'Only with include_raw_results: true; keyed by tool name',
      }),
      truncated: Truncated,
    }),
    {
      id: 'StartInvestigationResultResponse',
      description:
        'The finished investigation (synchronous start). Show report.summary to the user. report is null when the investigation failed or was canceled.',
      example: {
        session_id: EXAMPLE_SESSION_ID,
        run_id: EXAMPLE_RUN_ID,
        session_url: EXAMPLE_SESSION_URL,
        status: 'completed',
        report: EXAMPLE_REPORT,
      },
    },
  ))();

export const SessionParams = /* @__PURE__ */ (() =>
  withMeta(z.object({ session_id: SessionId }), { id: 'SessionParams' }))();

export const SessionHistoryQuery = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      after: withMeta(z.optional(Cursor), {
        description: 'next_cursor of the previous poll: return only history recorded since then',
      }),
    }),
    { id: 'SessionHistoryQuery' },
  ))();

export const HistoryMessage = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      message_id: withMeta(z.string(), {
        description: 'Position of the message in the history',
        example: 'm_000003',
      }),
      role: withMeta(z.enum(['assistant', 'user', 'system']), {
        description:
          "user: the request as received; assistant: the investigation's progress and conclusions; system: reserved for service notes",
        example: 'assistant',
      }),
      content: withMeta(z.string(), { description: 'Message text, written for the persona' }),
      created_at: withMeta(IsoDateTime, { description: 'When it was recorded (UTC)' }),
    }),
    { id: 'HistoryMessage', description: 'A message of the session conversation' },
  ))();

export const HistoryEvent = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      event_id: withMeta(z.string(), {
        description: 'Position of the event in the history',
        example: 'e_000004',
      }),
      type: withMeta(z.string(), {
        description:
          'What happened, e.g. status_changed, tool_started, tool_succeeded, tool_failed, tool_timed_out, report_ready',
        example: 'tool_succeeded',
      }),
      detail: withMeta(z.record(z.string(), z.unknown()), {
        description: 'Event specifics (tool, tool_call_id, duration_ms, status...)',
        example: { tool: 'domain_analysis', tool_call_id: 'tc_6f1c2a9e', duration_ms: 12, findings: 2 },
      }),
      created_at: withMeta(IsoDateTime, { description: 'When it happened (UTC)' }),
    }),
    { id: 'HistoryEvent', description: 'A persisted event of the session' },
  ))();

export const SessionSummary = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session_id: SessionId,
      run_id: withMeta(z.optional(z.string()), {
        description: 'Identifier of the workflow run',
        example: EXAMPLE_RUN_ID,
      }),
      status: withMeta(SessionStatus, {
        description:
          'initialized or active: keep polling every few seconds. completed, failed or canceled: stop polling.',
      }),
      entity: Entity,
      persona: PersonaName,
      tlp: withMeta(Tlp, { description: 'TLP 2.0 level the investigation was started with' }),
      created_at: withMeta(IsoDateTime, { description: 'When the investigation started (UTC)' }),
      updated_at: withMeta(IsoDateTime, { description: 'Last change of the session (UTC)' }),
      completed_at: withMeta(z.optional(IsoDateTime), {
        description: 'When it reached completed, failed or canceled',
      }),
      failure_reason: withMeta(z.optional(z.string()), {
        description: 'Why the session failed, when it did',
      }),
      risk_score: withMeta(z.optional(z.number().check(z.int(), z.gte(0), z.lte(100))), {
        description: 'Once completed',
      }),
      verdict: withMeta(z.optional(Verdict), { description: 'Once completed' }),
    }),
    { id: 'SessionSummary' },
  ))();

export const SessionHistoryResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session: withMeta(SessionSummary, { description: 'The session: status first of all' }),
      messages: withMeta(z.array(HistoryMessage), { description: 'Messages, oldest first' }),
      events: withMeta(z.array(HistoryEvent), { description: 'Events, oldest first' }),
      tool_calls: withMeta(z.array(ToolCall), {
        description: 'Enrichment steps recorded so far, oldest first',
      }),
      next_cursor: withMeta(z.nullable(z.string()), {
        description:
          'Pass as ?after= on the next poll to receive only newer history; null when nothing has been recorded yet',
      }),
      has_more: withMeta(z.boolean(), {
        description:
          'true when more history is stored than one poll returns (500 items): poll again at once with ?after=next_cursor',
        example: false,
      }),
    }),
    {
      id: 'SessionHistoryResponse',
      description:
        'Persisted state of the session. Answered 200 even when session.status is failed. History may be partial while the investigation runs.',
      example: {
        session: {
          session_id: EXAMPLE_SESSION_ID,
          run_id: EXAMPLE_RUN_ID,
          status: 'active',
          entity: { type: 'ip', value: '203.0.113.7' },
          persona: 'SOC Analyst',
          tlp: 'amber',
          created_at: '2026-11-01T12:00:00Z',
          updated_at: '2026-11-01T12:00:02Z',
        },
        messages: [
          {
            message_id: 'm_000001',
            role: 'assistant',
            content:
              'Investigating IP address 203.0.113.7 with 4 tools: ip_classification, incident_history, prior_investigations, graph_neighbourhood.',
            created_at: '2026-11-01T12:00:01Z',
          },
        ],
        events: [
          {
            event_id: 'e_000002',
            type: 'tool_succeeded',
            detail: { tool: 'ip_classification', duration_ms: 3, findings: 1 },
            created_at: '2026-11-01T12:00:02Z',
          },
        ],
        tool_calls: [],
        next_cursor: 'eyJ2IjoxfQ',
        has_more: false,
      },
    },
  ))();

export const InvestigationReportResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session_id: SessionId,
      status: SessionStatus,
      entity: Entity,
      persona: PersonaName,
      tlp: withMeta(Tlp, {
        description: 'TLP 2.0 level the investigation was started with; share the report accordingly',
      }),
      report: withMeta(z.nullable(Report), {
        description:
          'Summary, risk score, verdict, entities and findings; null until status is completed (and for failed or canceled sessions)',
      }),
      created_at: withMeta(IsoDateTime, { description: 'When the investigation started (UTC)' }),
      completed_at: withMeta(z.optional(IsoDateTime), {
        description: 'When it reached completed, failed or canceled',
      }),
      failure_reason: withMeta(z.optional(z.string()), {
        description: 'Why the investigation failed, when it did',
      }),
      truncated: Truncated,
    }),
    {
      id: 'InvestigationReportResponse',
      description:
        'The report of an investigation: summary, risk score, verdict, entities and findings. report is null until the session is completed.',
      example: {
        session_id: EXAMPLE_SESSION_ID,
        status: 'completed',
        entity: { type: 'domain', value: 'paypa1-login.com' },
        persona: 'SOC Analyst',
        tlp: 'amber',
        report: EXAMPLE_REPORT,
        created_at: '2026-11-01T12:00:00Z',
        completed_at: '2026-11-01T12:00:04Z',
      },
    },
  ))();

export const CancelInvestigationResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session_id: SessionId,
      status: withMeta(SessionStatus, {
        description: 'canceled (a session that had already ended is answered 409 instead)',
      }),
    }),
    {
      id: 'CancelInvestigationResponse',
      example: { session_id: EXAMPLE_SESSION_ID, status: 'canceled' },
    },
  ))();

const StixId = /* @__PURE__ */ (() =>
  withMeta(
    z
      .string()
      .check(
        z.regex(/^[a-z][a-z0-9-]*--[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      ),
    {
      description: 'STIX identifier: <type>--<UUID>',
      example: 'ipv4-addr--28bb3599-77cd-5a82-a950-b5bc3caf07c4',
    },
  ))();

export const StixObject = /* @__PURE__ */ (() =>
  withMeta(
    z.catchall(
      z.object({
        type: withMeta(z.string(), { description: 'STIX object type', example: 'ipv4-addr' }),
        id: StixId,
        spec_version: withMeta(z.optional(z.string()), { description: 'Always 2.1', example: '2.1' }),
      }),
      z.unknown(),
    ),
    {
      id: 'StixObject',
      description:
        'A STIX 2.1 object: marking-definition (TLP 2.0), identity (this service), report, ipv4-addr / ipv6-addr / domain-name / user-account observables (deterministic UUIDv5 IDs) or infrastructure (hosts), attack-pattern (MITRE ATT&CK), indicator (malicious verdicts), relationship',
    },
  ))();

export const StixBundle = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      type: withMeta(z.literal('bundle'), { description: 'Always bundle' }),
      id: StixId,
      objects: withMeta(z.array(StixObject), {
        description: 'The objects; the report object lists the others in object_refs',
      }),
    }),
    {
      id: 'StixBundle',
      description:
        "The investigation report as a STIX 2.1 bundle (OASIS STIX 2.1). Every object carries the session's TLP 2.0 marking (object_marking_refs); the report object holds the verdict, summary and risk (confidence) and refers to the observables, attack-patterns, indicator and relationships.",
      example: {
        type: 'bundle',
        id: 'bundle--5d0092c5-5f74-5287-9642-33f4c354e56d',
        objects: [
          {
            type: 'ipv4-addr',
            spec_version: '2.1',
            id: 'ipv4-addr--28bb3599-77cd-5a82-a950-b5bc3caf07c4',
            value: '198.51.100.3',
          },
        ],
      },
    },
  ))();
