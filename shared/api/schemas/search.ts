import { SESSION_STATUSES } from '../../domain/core/session-status';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Cursor, Entity, IsoDateTime, Limit, NextCursor, SessionId, Truncated } from './common';

/** The report's verdicts, as the plugin manifest promises them. */
export const VERDICTS = ['benign', 'suspicious', 'malicious', 'unknown'] as const;

export const SessionStatus = /* @__PURE__ */ (() =>
  withMeta(z.enum(SESSION_STATUSES), {
    id: 'SessionStatus',
    description: 'Status of an investigation session',
    example: 'completed',
  }))();

export const Verdict = /* @__PURE__ */ (() =>
  withMeta(z.enum(VERDICTS), {
    id: 'Verdict',
    description:
      "The investigation's conclusion. malicious (risk ≥ 70) and suspicious (≥ 30) rest on evidence of a threat; benign needs positive evidence of benignness named in a finding (benign: true: the tenant's allowlist, an analyst's false-positive feedback, a well-known legitimate owner); unknown means no tool found evidence either way (not the same as safe). unknown was added in the third round (docs/api-versioning.md).",
    example: 'malicious',
  }))();

export const SearchQuery = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      q: withMeta(z.string().check(z.trim(), z.minLength(1), z.maxLength(256)), {
        description:
          'What to look for; every term must match. An IP, user (j.doe@contoso.example, CORP\\jdoe) or domain matches investigations of or mentioning that entity exactly; other words match the summary and findings. Filters: type:ip|user|host|domain, status:completed, verdict:malicious, persona:"SOC Analyst", and typed values ip:…, user:…, host:…, domain:…. At most 8 terms; stop words are ignored.',
        example: '203.0.113.66 phishing',
      }),
      status: withMeta(z.optional(SessionStatus), { description: 'Only sessions in this status' }),
      verdict: withMeta(z.optional(Verdict), { description: 'Only sessions whose report has this verdict' }),
      limit: Limit,
      cursor: z.optional(Cursor),
    }),
    { id: 'SearchQuery' },
  ))();

export const SearchResult = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      session_id: SessionId,
      status: SessionStatus,
      entity: Entity,
      risk_score: withMeta(z.nullable(z.number().check(z.gte(0), z.lte(100))), {
        description: 'Risk score 0-100; null until the investigation completes',
        example: 82,
      }),
      summary: withMeta(z.nullable(z.string()), {
        description: "The report's summary; null until the investigation completes",
      }),
      verdict: z.optional(z.nullable(Verdict)),
      persona: withMeta(z.string(), {
        description: 'Who the report was written for',
        example: 'SOC Analyst',
      }),
      created_at: withMeta(z.iso.datetime(), { description: 'When the investigation started (UTC)' }),
    }),
    { id: 'SearchResult', description: 'One matching investigation session' },
  ))();

export const SearchResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      results: withMeta(z.array(SearchResult), {
        description: "The caller's matching sessions, newest first",
      }),
      next_cursor: NextCursor,
      truncated: Truncated,
    }),
    {
      id: 'SearchResponse',
      example: {
        results: [
          {
            session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
            status: 'completed',
            entity: { type: 'ip', value: '203.0.113.66' },
            risk_score: 82,
            summary:
              '203.0.113.66 ran a password-spray against j.doe@contoso.example and hosts a phishing page on micros0ft-login.example.com.',
            verdict: 'malicious',
            persona: 'SOC Analyst',
            created_at: '2026-11-01T09:30:00.000Z',
          },
        ],
        next_cursor: null,
      },
    },
  ))();

export const ListSessionsQuery = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      status: withMeta(z.optional(SessionStatus), { description: 'Only sessions in this status' }),
      verdict: withMeta(z.optional(Verdict), { description: 'Only sessions whose report has this verdict' }),
      entity: withMeta(z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(256))), {
        description:
          'Only sessions of or naming this entity: an IP, user or domain matches exactly, anything else by its words (as in searchInvestigations)',
        example: '203.0.113.66',
      }),
      since: withMeta(z.optional(IsoDateTime), {
        description: 'Only sessions started at or after this time',
      }),
      limit: Limit,
      cursor: z.optional(Cursor),
    }),
    { id: 'ListSessionsQuery' },
  ))();

export const ListSessionsResponse = /* @__PURE__ */ (() =>
  withMeta(
    z.object({
      sessions: withMeta(z.array(SearchResult), { description: "The caller's sessions, newest first" }),
      next_cursor: NextCursor,
    }),
    { id: 'ListSessionsResponse' },
  ))();
