import { CONFIDENCES, TOOL_NAMES } from '../../domain/core/vocabulary';
import * as z from '../../zod';
import { withMeta } from '../../zod';
import { Verdict } from './search';

/** Why a report has its risk score and verdict: the findings and sources that made it, and its confidence. */

export const Confidence = /* @__PURE__ */ (() =>
  withMeta(z.enum(CONFIDENCES), {
    id: 'Confidence',
    description: 'How many independent sources stand behind the verdict: low, medium, high',
    example: 'medium',
  }))();

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
