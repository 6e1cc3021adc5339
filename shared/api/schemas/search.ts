import * as z from 'zod';
import { SESSION_STATUSES } from '../../domain/session-status';
import { Cursor, Entity, Limit, NextCursor, SessionId, Truncated } from './common';

/** The report's verdicts, as the plugin manifest promises them. */
export const VERDICTS = ['benign', 'suspicious', 'malicious', 'unknown'] as const;

export const SessionStatus = /* @__PURE__ */ z
  .enum(SESSION_STATUSES)
  .meta({ id: 'SessionStatus', description: 'Status of an investigation session', example: 'completed' });

export const Verdict = /* @__PURE__ */ z
  .enum(VERDICTS)
  .meta({ id: 'Verdict', description: "The investigation's conclusion", example: 'malicious' });

export const SearchQuery = /* @__PURE__ */ z
  .object({
    q: z.string().trim().min(1).max(256).meta({
      description:
        'What to look for; every term must match. An IP, user (j.doe@contoso.example, CORP\\jdoe) or domain matches investigations of or mentioning that entity exactly; other words match the summary and findings. Filters: type:ip|user|host|domain, status:completed, verdict:malicious, persona:"SOC Analyst", and typed values ip:…, user:…, host:…, domain:…. At most 8 terms; stop words are ignored.',
      example: '203.0.113.66 phishing',
    }),
    status: SessionStatus.optional().meta({ description: 'Only sessions in this status' }),
    verdict: Verdict.optional().meta({ description: 'Only sessions whose report has this verdict' }),
    limit: Limit,
    cursor: Cursor.optional(),
  })
  .meta({ id: 'SearchQuery' });

export const SearchResult = /* @__PURE__ */ z
  .object({
    session_id: SessionId,
    status: SessionStatus,
    entity: Entity,
    risk_score: z
      .number()
      .min(0)
      .max(100)
      .nullable()
      .meta({ description: 'Risk score 0-100; null until the investigation completes', example: 82 }),
    summary: z
      .string()
      .nullable()
      .meta({ description: "The report's summary; null until the investigation completes" }),
    verdict: Verdict.nullable().optional(),
    persona: z.string().meta({ description: 'Who the report was written for', example: 'SOC Analyst' }),
    created_at: z.iso.datetime().meta({ description: 'When the investigation started (UTC)' }),
  })
  .meta({ id: 'SearchResult', description: 'One matching investigation session' });

export const SearchResponse = /* @__PURE__ */ z
  .object({
    results: z.array(SearchResult).meta({ description: "The caller's matching sessions, newest first" }),
    next_cursor: NextCursor,
    truncated: Truncated,
  })
  .meta({
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
  });
