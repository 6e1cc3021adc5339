import type { AttackTechnique } from '../core/attack';
import type { Entity } from '../core/entity';
import type { Facts, FindingCategory, Verdict } from '../core/vocabulary';

/**
 * What every provider mapper shares: the result shape, the score of each normalised verdict, the
 * readers of untyped JSON, and the finding that states a source's verdict with its evidence.
 */

export type Json = Record<string, unknown>;

export interface IntelFinding {
  finding_id: string;
  title: string;
  description: string;
  impact: string;
  score: number;
  category: FindingCategory;
  evidence: string[];
  source_verdict: Verdict;
  attack?: AttackTechnique[];
}

export interface IntelResult {
  verdict: Verdict;
  findings: IntelFinding[];
  facts: Facts;
}

/** Contribution to the risk score of a source's verdict (before the engine bounds it). */
export const VERDICT_SCORES: Record<Verdict, number> = {
  malicious: 75,
  suspicious: 35,
  benign: 0,
  unknown: 0,
};

export const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** Numbers, including the numeric strings some providers send (URLhaus `url_count`). */
export const num = (value: unknown): number => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
};
export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const strings = (value: unknown, max = 20): string[] =>
  arr(value)
    .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
    .map(String)
    .slice(0, max);

export function verdictFinding(
  source: string,
  title: string,
  entity: Entity,
  verdict: Verdict,
  detail: string,
  evidence: string[],
  attack: AttackTechnique[] = [],
  score = VERDICT_SCORES[verdict],
): IntelFinding {
  const known = verdict === 'malicious' || verdict === 'suspicious';
  return {
    finding_id: `verdict:${verdict}`,
    title: `${title}: ${verdict}${detail ? ` (${detail})` : ''}`,
    description: `${title} says ${entity.value} is ${verdict}${detail ? `: ${detail}` : ''}.`,
    impact: known
      ? `An outside threat-intelligence source (${title}) reports ${entity.value} as ${verdict}.`
      : `${title} has no reports against ${entity.value}.`,
    score,
    category: known ? 'suspicious_infrastructure' : 'context',
    evidence: [`source: ${source}`, `verdict: ${verdict}`, ...evidence.filter(Boolean)],
    source_verdict: verdict,
    ...(attack.length > 0 ? { attack } : {}),
  };
}

export function result(
  verdict: Verdict,
  facts: Json,
  finding: IntelFinding,
  ...more: IntelFinding[]
): IntelResult {
  return { verdict, facts: { verdict, ...(facts as Facts) }, findings: [finding, ...more] };
}

// AbuseIPDB report categories (https://www.abuseipdb.com/categories) that name a technique.
