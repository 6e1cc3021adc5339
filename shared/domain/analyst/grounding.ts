import { canonicalIp } from '../core/entity-normalisation';
import { parseHostname } from '../core/public-suffix';

/**
 * Grounding: every indicator the model names (IP, domain or host name, user, hash, URL) must occur
 * in this investigation's tool outputs. Indicators are found by shape in a canonical form of the
 * text, normalised and compared as whole values, so `10.0.0.1` is not grounded by `10.0.0.12`. A short
 * host name without dots cannot be told from a word and is not checked (docs/analyst.md).
 *
 * The canonical form (`canonicalForm`) undoes what hides an indicator from a pattern: Unicode
 * compatibility forms (NFKC: full-width digits and dots), invisible format characters (zero-width
 * spaces and joiners, bidi controls, soft hyphens) and the usual defanging (`evil[.]com`,
 * `evil(.)com`, `evil[dot]com`, `hxxp`, `[:]`, `user[@]host`). Names are compared in their ASCII
 * (punycode) form, so an IDN or a look-alike in another script (`еvil.com` with a Cyrillic `е`) is an
 * indicator of its own, never the Latin name it mimics; IPv4 written as one decimal, hex or octal
 * number (`3325256711`, `0xC6336407`, `0306.0063.0144.07`) is read as the dotted address it is.
 */
export type IndicatorKind = 'url' | 'user' | 'hash' | 'ip' | 'domain';

export interface Indicator {
  kind: IndicatorKind;
  /** Normalised value, compared with the evidence. */
  value: string;
  /** Span in the original text (before canonicalisation). */
  start: number;
  end: number;
}

/** Internal suffixes hosts commonly use; not in the public suffix list but still host names. */
const INTERNAL_SUFFIXES = new Set(['local', 'internal', 'lan', 'corp', 'home', 'intranet', 'localdomain']);

/** Name characters: letters and digits of any script (IDNs and look-alikes are names too). */
const NAME = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}\p{M}_-]{0,61}[\p{L}\p{N}\p{M}])?`;
const NOT_NAME_BEFORE = String.raw`(?<![\p{L}\p{N}\p{M}_.-])`;
const NOT_NAME_AFTER = String.raw`(?![\p{L}\p{N}\p{M}_-])`;

const PATTERNS: readonly [IndicatorKind, RegExp][] = [
  ['url', /\b(?:https?|hxxps?):\/\/[^\s<>"'`)\]]+/giu],
  [
    'user',
    new RegExp(
      String.raw`${NOT_NAME_BEFORE}[\p{L}\p{N}._%+-]+@${NAME}(?:\.${NAME})+${NOT_NAME_AFTER}`,
      'giu',
    ),
  ],
  ['user', /\b[a-z0-9_-]{1,64}\\[a-z0-9._$-]{1,64}\b/gi],
  ['hash', /\b(?:[a-f0-9]{64}|[a-f0-9]{40}|[a-f0-9]{32})\b/gi],
  ['ip', /\b(?:\d{1,3}\.){3}\d{1,3}\b/g],
  // IPv4 as hex or octal parts, or as one hex number: read by the URL host parser.
  [
    'ip',
    /(?<![\w.])(?:(?:0x[0-9a-f]{1,2}|0[0-7]{1,3}|\d{1,3})\.){3}(?:0x[0-9a-f]{1,2}|0[0-7]{1,3}|\d{1,3})(?![\w.])|(?<![\w.])0x[0-9a-f]{1,8}(?![\w.])/giu,
  ],
  // IPv4 as one decimal number: nine or ten digits (eight would read dates such as 20261128).
  ['ip', /(?<![\w.,:])\d{9,10}(?![\w.,:])/g],
  ['ip', /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/gi],
  ['domain', new RegExp(String.raw`${NOT_NAME_BEFORE}(?:${NAME}\.)+${NAME}${NOT_NAME_AFTER}\.?`, 'giu')],
];

/** The host as the URL parser reads it: punycode names, dotted IPv4 from any numeric form. */
function urlHost(name: string): string | undefined {
  try {
    return new URL(`http://${name}`).hostname;
  } catch {
    return undefined;
  }
}

function numericIpv4(raw: string): string | undefined {
  if (/^\d+$/.test(raw) && (Number(raw) < 16_777_216 || Number(raw) > 4_294_967_295)) return undefined;
  const host = urlHost(raw);
  return host && /^(?:\d{1,3}\.){3}\d{1,3}$/.test(host) ? host : undefined;
}

function normaliseUrl(raw: string): string | undefined {
  const text = raw.replace(/^hxxp/i, 'http').replace(/[.,;:!?]+$/, '');
  try {
    const url = new URL(text);
    const href = url.href;
    // `http://host` and `http://host/` are one URL; keep the form without the bare slash.
    return url.pathname === '/' && !url.search && !url.hash && !text.endsWith('/') ? href.slice(0, -1) : href;
  } catch {
    return text.toLowerCase();
  }
}

function normalise(kind: IndicatorKind, raw: string): string | undefined {
  const text = raw.toLowerCase();
  switch (kind) {
    case 'url':
      return normaliseUrl(raw);
    case 'ip':
      return canonicalIp(raw) ?? numericIpv4(raw);
    case 'user': {
      const at = text.lastIndexOf('@');
      if (at < 0) return text;
      const host = urlHost(text.slice(at + 1));
      return host ? `${text.slice(0, at)}@${host}` : text;
    }
    case 'domain': {
      const name = urlHost(text.replace(/\.$/, ''));
      if (!name || /^[\d.]+$/.test(name)) return undefined;
      const last = name.slice(name.lastIndexOf('.') + 1);
      if (INTERNAL_SUFFIXES.has(last)) return name;
      const parsed = parseHostname(name);
      return parsed.isIcann && parsed.domain ? name : undefined;
    }
    default:
      return text;
  }
}

/** Defanged spellings and what they stand for (matched case-insensitively). */
const DEFANGED: readonly [RegExp, string][] = [
  [/^(?:\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\})/i, '.'],
  [/^(?:\[:\]|\(:\))/, ':'],
  [/^(?:\[:\/\/\]|\[:\/\/]|:\[\/\/\])/, '://'],
  [/^(?:\[@\]|\(@\)|\[at\]|\(at\))/i, '@'],
];

/**
 * The text as patterns should see it, and for each of its UTF-16 units the span of the original
 * text it came from: NFKC per character, format characters dropped, defanging undone.
 */
export function canonicalForm(text: string): { text: string; from: number[]; to: number[] } {
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  const emit = (chars: string, start: number, end: number) => {
    out += chars;
    for (let i = 0; i < chars.length; i++) {
      from.push(start);
      to.push(end);
    }
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i, i + 8);
    const defanged = DEFANGED.find(([pattern]) => pattern.test(rest));
    if (defanged) {
      const length = (rest.match(defanged[0]) as RegExpMatchArray)[0].length;
      emit(defanged[1], i, i + length);
      i += length;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i) as number);
    if (!/[\p{Cf}]/u.test(char)) emit(char.normalize('NFKC'), i, i + char.length);
    i += char.length;
  }
  return { text: out, from, to };
}

/** Indicators in the text, longest first where they overlap (a URL wins over the domain inside it). */
export function extractIndicators(original: string): Indicator[] {
  const canonical = canonicalForm(original);
  const text = canonical.text;
  const found: Indicator[] = [];
  for (const [kind, pattern] of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const raw = kind === 'url' ? match[0].replace(/[.,;:!?]+$/, '') : match[0].replace(/\.$/, '');
      const value = normalise(kind, raw);
      if (!value || raw.length === 0) continue;
      const start = canonical.from[match.index] as number;
      const end = canonical.to[match.index + raw.length - 1] as number;
      found.push({ kind, value, start, end });
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
  else if (typeof value === 'number' && Number.isInteger(value)) into.push(String(value));
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
  for (const original of strings) {
    const text = canonicalForm(original).text;
    for (const [kind, pattern] of PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const raw = kind === 'url' ? match[0].replace(/[.,;:!?]+$/, '') : match[0].replace(/\.$/, '');
        const value = normalise(kind, raw);
        if (value) values.add(value);
      }
    }
    const whole = text.trim().toLowerCase();
    if (whole) values.add(canonicalIp(whole) ?? whole);
    const host = whole ? urlHostOf(whole) : undefined;
    if (host) values.add(host);
  }
  return values;
}

/** A whole evidence string that is a name: its ASCII form, so IDNs in either spelling match. */
function urlHostOf(text: string): string | undefined {
  if (/[\s/@:]/.test(text)) return undefined;
  const host = urlHost(text);
  return host && host !== text ? host : undefined;
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
