import { TOOL_CALL_STATUSES, TOOL_NAMES } from '../../domain/core/vocabulary';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Cursor, Entity, IsoDateTime, SessionId, Truncated } from './common';
import { EntityInput, PersonaName, StartInvestigationRequest, Tlp } from './investigation-request';
import {
  AnalystReport,
  AttackTechnique,
  Coverage,
  EntityAttributes,
  EXAMPLE_REPORT,
  EXAMPLE_RUN_ID,
  EXAMPLE_SESSION_ID,
  EXAMPLE_SESSION_URL,
  Finding,
  Report,
  ReportEntity,
} from './report';
import { ScoreExplanation } from './score-explanation';
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

export {
  AnalystReport,
  AttackTechnique,
  Coverage,
  EntityAttributes,
  EntityInput,
  Finding,
  PersonaName,
  Report,
  ReportEntity,
  ScoreExplanation,
  SessionStatus,
  StartInvestigationRequest,
  Tlp,
  Verdict,
};

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
      async: withMeta(z.optional(z.enum(['true', 'false'])), {
        description:
          'true: answer 202 (with Location and Retry-After) while the session is initialized or active, and 200 once it has ended: the asynchronous request-reply pattern a Logic Apps HTTP action follows. The Location of a background start carries it.',
        example: 'true',
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

export const StartedBy = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      kind: withMeta(z.enum(['api_key', 'user']), {
        description:
          'api_key: started with an API key (the plugin, a script); user: by a person in the web console',
        example: 'api_key',
      }),
      key_id: withMeta(z.optional(z.string()), {
        description: 'The ID of the API key that started it (kind api_key only)',
        example: 'k7q2m4x3c3v5b6n2',
      }),
      name: withMeta(z.nullable(z.string()), {
        description:
          "The key's name or the person's console username; null for a session started before names were recorded when the service cannot tell",
        example: 'Security Copilot plugin',
      }),
      via: withMeta(z.optional(z.enum(['mcp'])), {
        description:
          'mcp: the key started it through the MCP endpoint (POST /api/v1/mcp); absent: through the REST API or the console',
        example: 'mcp',
      }),
    }),
    {
      id: 'StartedBy',
      description:
        'Who started the session. Only the key that started it and console users can poll a session, so it names nobody the caller could not already see.',
    },
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
      started_by: withMeta(z.optional(StartedBy), { description: 'Who started the investigation' }),
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
          started_by: { kind: 'api_key', key_id: 'k7q2m4x3c3v5b6n2', name: 'Security Copilot plugin' },
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
