import { canonicalIp } from '../core/entity-normalisation';
import { parseHostname } from '../core/public-suffix';

/**
 * Grounding: every indicator the model names (IP, domain or host name, user, hash, URL) must occur
 * in this investigation's tool outputs. Indicators are found by shape, normalised (canonical IPs,
 * lower case) and compared as whole values, so `10.0.0.1` is not grounded by `10.0.0.12`. A short
 * host name without dots cannot be told from a word and is not checked (docs/analyst.md).
 */
export type IndicatorKind = 'url' | 'user' | 'hash' | 'ip' | 'domain';

export interface Indicator {
  kind: IndicatorKind;
  /** Normalised value, compared with the evidence. */
  value: string;
  start: number;
  end: number;
}

/** Internal suffixes hosts commonly use; not in the public suffix list but still host names. */
const INTERNAL_SUFFIXES = new Set(['local', 'internal', 'lan', 'corp', 'home', 'intranet', 'localdomain']);

const PATTERNS: readonly [IndicatorKind, RegExp][] = [
  ['url', /\b(?:https?|hxxps?):\/\/[^\s<>"'`)\]]+/gi],
  ['user', /\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/gi],
  ['user', /\b[a-z0-9_-]{1,64}\\[a-z0-9._$-]{1,64}\b/gi],
  ['hash', /\b(?:[a-f0-9]{64}|[a-f0-9]{40}|[a-f0-9]{32})\b/gi],
  ['ip', /\b(?:\d{1,3}\.){3}\d{1,3}\b/g],
  ['ip', /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi],
  ['domain', /\b(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]\b\.?/gi],
];

function normalise(kind: IndicatorKind, raw: string): string | undefined {
  const text = raw.toLowerCase();
  switch (kind) {
    case 'url':
      return text.replace(/^hxxp/, 'http').replace(/[.,;:!?]+$/, '');
    case 'ip':
      return canonicalIp(raw) ?? undefined;
    case 'domain': {
      const name = text.replace(/\.$/, '');
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (INTERNAL_SUFFIXES.has(last)) return name;
      const parsed = parseHostname(name);
      return parsed.isIcann && parsed.domain ? name : undefined;
    }
    default:
      return text;
  }
}

/** Indicators in the text, longest first where they overlap (a URL wins over the domain inside it). */
export function extractIndicators(text: string): Indicator[] {
  const found: Indicator[] = [];
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const raw = kind === 'url' ? match[0].replace(/[.,;:!?]+$/, '') : match[0].replace(/\.$/, '');
      const value = normalise(kind, raw);
      if (value) found.push({ kind, value, start: match.index, end: match.index + raw.length });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Indicator[] = [];
  for (const indicator of found) {
    const last = kept.at(-1);
    if (last && indicator.start < last.end) continue;
    kept.push(indicator);
  }
  return kept;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      collectStrings(item, into);
    }
  }
}

/** Every indicator value in the evidence (tool outputs, entities), overlapping ones included. */
export function evidenceIndicators(evidence: readonly unknown[]): Set<string> {
  const strings: string[] = [];
  for (const item of evidence) collectStrings(item, strings);
  const values = new Set<string>();
  for (const text of strings) {
    for (const [kind, pattern] of PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const value = normalise(kind, match[0].replace(/\.$/, ''));
        if (value) values.add(value);
      }
    }
    const whole = text.trim().toLowerCase();
    if (whole) values.add(canonicalIp(whole) ?? whole);
  }
  return values;
}

export const REMOVED_INDICATOR = '[unverified indicator removed]';

/** The text with every indicator not in the evidence replaced; the removed values, in order. */
export function groundText(text: string, evidence: ReadonlySet<string>): { text: string; removed: string[] } {
  const removed: string[] = [];
  let out = '';
  let at = 0;
  for (const indicator of extractIndicators(text)) {
    if (evidence.has(indicator.value)) continue;
    removed.push(indicator.value);
    out += text.slice(at, indicator.start) + REMOVED_INDICATOR;
    at = indicator.end;
  }
  return { text: out + text.slice(at), removed };
}
