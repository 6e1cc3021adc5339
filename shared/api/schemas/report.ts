import {
  COVERAGE_SOURCE_KINDS,
  COVERAGE_SOURCE_STATUSES,
  ENTITY_ASSESSMENTS,
  FINDING_CATEGORIES,
  FINDING_SEVERITIES,
  SOURCE_READINGS,
  TOOL_NAMES,
} from '../../domain/core/vocabulary';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Entity, IsoDateTime } from './common';
import { PersonaName } from './investigation-request';
import { Confidence, ScoreExplanation } from './score-explanation';
import { Verdict } from './search';

/** The report of an investigation and its parts (findings, entities, coverage, score explanation, analyst section). */

export const EXAMPLE_SESSION_ID = 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';
export const EXAMPLE_RUN_ID = 'r_01JD6Z7QK3Q0V8Y5N2B4C6D8EF';
export const EXAMPLE_SESSION_URL = `https://sis.example.com/sessions/${EXAMPLE_SESSION_ID}`;

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
          "Positive evidence that the entity is benign (score 0): the tenant's allowlist, an analyst's false-positive feedback, a public resolver or content-delivery network, a domain owned by a brand in the offline brand catalogue, a popularity rank. Only such a finding makes a report benign.",
        example: true,
      }),
      evidence_source: withMeta(z.optional(z.string()), {
        description:
          'The independent source the finding rests on (feed:FEODO, intel:abuseipdb, tenant:allowlist, feedback, offline:asn, offline:domain-analysis...). Each source counts once in the risk score: of several scored findings naming it, only the strongest adds.',
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
      as_of: withMeta(z.optional(IsoDateTime), {
        description:
          "On findings of the knowledge graph and the incidents: when the run read them. The report is a point-in-time view (its description says 'As of the run'); the console's live graph and incident panels show them now.",
      }),
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

export const CoverageSource = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      name: withMeta(z.string(), {
        description: "A built-in tool's name, a feed's (`FEODO`), a connector's (`abuseipdb`) or `analyst`",
        example: 'FEODO',
      }),
      kind: withMeta(z.enum(COVERAGE_SOURCE_KINDS), {
        description:
          "built_in (reads the tenant's own data), feed or connector (outside knowledge), analyst (the Bedrock model)",
        example: 'feed',
      }),
      status: withMeta(z.enum(COVERAGE_SOURCE_STATUSES), {
        description:
          'consulted; skipped (not applicable, TLP, quota, open circuit); disabled (not turned on); failed (its reason says why; the investigation goes on)',
        example: 'consulted',
      }),
      reason: withMeta(z.optional(z.string()), {
        description:
          'Why it was skipped, disabled or failed; for a consulted source, a caveat (stale, cached)',
        example: 'Not enabled (SIS_FEED_FEODO_ENABLED).',
      }),
      reading: withMeta(z.optional(z.enum(SOURCE_READINGS)), {
        description: "A consulted source's own reading of the entity",
        example: 'no_opinion',
      }),
    }),
    { id: 'CoverageSource', description: 'One source the tenant has and what became of it in this run' },
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
      sources: withMeta(z.optional(z.array(CoverageSource)), {
        description:
          'Every source the tenant has (built-in tools, each feed, each connector, the analyst) and what became of it; absent from reports stored before it existed',
      }),
    }),
    {
      id: 'Coverage',
      description: 'Which enrichment tools completed; a verdict of unknown means too few did',
    },
  ))();

export const EXAMPLE_REPORT = {
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
      assessment: withMeta(z.optional(z.enum(ENTITY_ASSESSMENTS)), {
        description:
          "A user or host with evidence against it, in words (docs/verdicts.md): compromised (malicious-level evidence), targeted (suspicious, with incidents, hostile neighbours or a confirmation aimed at it) or at_risk (suspicious on its own signals). The report's text uses these words for users and hosts and keeps 'malicious' for IPs and domains; verdict is unchanged. Absent for IPs, domains and users or hosts without evidence against them.",
        example: 'compromised',
      }),
    }),
    { id: 'Report', description: 'The investigation report', example: EXAMPLE_REPORT },
  ))();
