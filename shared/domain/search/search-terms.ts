import { type Entity, type EntityInput, isEntityType } from '../core/entity';
import { canonicalIp, normaliseEntity } from '../core/entity-normalisation';
import { ValidationError } from '../core/errors';

/**
 * Tokenisation for the investigation search index. A session is indexed under a bounded set of
 * terms; a query becomes a few terms that must all match (AND). Both sides go through the same
 * functions, so what is written is exactly what a query can find.
 *
 * Term kinds (the prefix keeps kinds apart: the word "ip" never matches the type ip):
 * - `v:<value>`   an entity value, exact (the subject and the report's entities)
 * - `t:<type>`    the subject's entity type
 * - `s:<status>`  session status;  `vd:<verdict>` report verdict;  `p:<persona>` persona slug
 * - `w:<word>`    a word of the summary, finding titles and descriptions, or of the subject's name
 *
 * These are the terms a session is FOUND by (every posting carries them). The partitions it is
 * posted under are fewer: search-phrases.ts posts one `x:<phrase>` for the words of a static
 * phrase of the rules engine's text that the session has in full, with the same results.
 */
export const MAX_SESSION_TERMS = 60;
export const MAX_QUERY_TERMS = 8;
export const MAX_RELATED_ENTITY_TERMS = 20;
const MAX_WORD_LENGTH = 64;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its ' +
    'may me might my no not of on or our over she should so such than that the their them then there these they this ' +
    'those to too under up was we were what when where which while who why will with within would you your'
  ).split(' '),
);

/** NFKC, diacritics removed, lowercased: `Müller` and `MULLER` fold to `muller`. */
export function foldText(text: string): string {
  // Marks are dropped only after Latin, Greek and Cyrillic letters: in other scripts (Japanese
  // dakuten, Devanagari vowel signs) they change the word, not just its accent.
  return text
    .normalize('NFKC')
    .normalize('NFKD')
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '$1')
    .normalize('NFC')
    .toLowerCase();
}

/**
 * Words of free text: runs of letters and digits, so punctuation, emoji and symbols separate words.
 * Single characters, stop words and runs longer than 64 characters (blobs, not words) are dropped;
 * a 64-character SHA-256 stays searchable. Scripts written without spaces (Chinese, Japanese)
 * yield one word per run.
 */
export function wordsOf(text: string | null | undefined): string[] {
  if (!text) return [];
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(
      (word) => Array.from(word).length >= 2 && word.length <= MAX_WORD_LENGTH && !STOP_WORDS.has(word),
    );
}

/** `SOC Analyst` → `soc-analyst`; also used for status and verdict values. */
export function slug(text: string): string {
  return foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join('-');
}

/** Text in double quotes (straight or curly): what a finding quotes, such as an incident's title. */
export function quotedIn(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(/["“]([^"“”]{2,200})["”]/g)].map((m) => m[1] as string);
}

export function valueTerm(entity: Entity): string {
  return `v:${entity.value.toLowerCase()}`;
}

/**
 * Name parts of users, hosts and domains, so `doe` or `ws-0142` finds `j.doe@contoso.example` or
 * the host `ws-0142` (a bare host name cannot be told from a hyphenated word, so it is searched as words).
 */
function entityWords(entity: Entity): string[] {
  return entity.type === 'ip' ? [] : wordsOf(entity.value);
}

export interface SearchableSession {
  entity: Entity;
  status: string;
  verdict?: string | null;
  persona: string;
  summary?: string | null;
  findings?: ReadonlyArray<{ title: string; description?: string | null }>;
  /** Entities named in the report, besides the subject. */
  entities?: readonly Entity[];
}

/** The index terms of a session: structural terms first, then words, at most MAX_SESSION_TERMS. */
export function termsForSession(session: SearchableSession): string[] {
  const terms = new Set<string>();
  const add = (term: string) => {
    if (terms.size < MAX_SESSION_TERMS && !term.endsWith(':')) terms.add(term);
  };
  add(valueTerm(session.entity));
  add(`t:${session.entity.type}`);
  if (session.status) add(`s:${slug(session.status)}`);
  if (session.verdict) add(`vd:${slug(session.verdict)}`);
  if (session.persona) add(`p:${slug(session.persona)}`);
  for (const entity of (session.entities ?? []).slice(0, MAX_RELATED_ENTITY_TERMS)) add(valueTerm(entity));
  const prose = [
    session.summary,
    ...(session.findings ?? []).flatMap((f) => [f.title, f.description]),
  ].filter((text): text is string => typeof text === 'string');
  // An IP or domain named only in the prose is still found by an exact query for it.
  for (const term of prose.flatMap(mentionedEntityTerms).slice(0, MAX_RELATED_ENTITY_TERMS)) add(term);
  // Words in the order an analyst remembers them, so the cap cuts the least memorable: the subject's
  // name, the finding titles, the text a finding quotes (the incident titles of incident_history),
  // the related entities' names, the rest of the findings' text, and the summary last (the rules
  // engine's summary restates the findings; its scores and counts are what nobody searches for).
  const findings = session.findings ?? [];
  const texts = [
    ...entityWords(session.entity),
    ...findings.flatMap((f) => wordsOf(f.title)),
    ...findings.flatMap((f) => quotedIn(f.description).flatMap(wordsOf)),
    ...(session.entities ?? []).slice(0, MAX_RELATED_ENTITY_TERMS).flatMap(entityWords),
    ...findings.flatMap((f) => wordsOf(f.description)),
    ...wordsOf(session.summary),
  ];
  for (const word of texts) add(`w:${word}`);
  return [...terms];
}

const FIELD_PREFIXES: Record<string, 'type' | 'status' | 'verdict' | 'persona' | 'value' | Entity['type']> = {
  type: 'type',
  t: 'type',
  status: 'status',
  s: 'status',
  verdict: 'verdict',
  persona: 'persona',
  p: 'persona',
  entity: 'value',
  value: 'value',
  v: 'value',
  ip: 'ip',
  user: 'user',
  host: 'host',
  domain: 'domain',
};

/** Selectivity order, so the store reads its rarest term first: values, long words, ... status. */
function termRank(term: string): number {
  const kind = term.slice(0, term.indexOf(':'));
  const ranks: Record<string, number> = { v: 0, w: 1, p: 2, vd: 3, t: 4, s: 5 };
  return (ranks[kind] ?? 6) * 1000 - (kind === 'w' ? term.length : 0);
}

function entityTerm(input: EntityInput, query: string): string {
  try {
    return valueTerm(normaliseEntity(input, 'q'));
  } catch (error) {
    if (error instanceof ValidationError) {
      throw new ValidationError(`Invalid search term "${query}": ${error.message}`, error.details);
    }
    throw error;
  }
}

/** A bare token is an exact entity when it is unmistakably one: an IP, a user with @ or \, a domain. */
function bareTokenTerms(token: string): string[] {
  if (canonicalIp(token) !== null) return [entityTerm(token, token)];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(token)) {
    // A pasted URL is searched by its host: that is the entity an investigation records.
    try {
      const host = new URL(token).hostname.replace(/^\[|\]$/g, '');
      if (host) return bareTokenTerms(host);
    } catch {
      // Fall through to words.
    }
  }
  if (/[@\\]/.test(token) || token.includes('.')) {
    try {
      const entity = normaliseEntity(token);
      if (entity.type !== 'host') return [valueTerm(entity)];
    } catch {
      // Not an entity after all (e.g. "e.g." or "v1.2"): search its words.
    }
  }
  return wordsOf(token).map((word) => `w:${word}`);
}

/** Exact entity terms for the IPs, users and domains written in free text. */
function mentionedEntityTerms(text: string): string[] {
  return text
    .split(/\s+/)
    .map((token) => token.replace(EDGE_PUNCTUATION, '').replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/, '$1'))
    .filter((token) => /[.:@\\]/.test(token))
    .flatMap((token) => {
      try {
        return bareTokenTerms(token).filter((term) => term.startsWith('v:'));
      } catch {
        return [];
      }
    });
}

const TOKEN = /([A-Za-z]+):"([^"]*)"|"([^"]*)"|(\S+)/g;
// Punctuation a sentence wraps around a value: `(203.0.113.7),` or `example.com?`.
const EDGE_PUNCTUATION = /^[("'“‘[{<]+|[)"'”’\]}>,;:!?.]+$/gu;

/**
 * Turns a query into index terms (all must match). Understands:
 * - bare IPs, users (`j.doe@contoso.example`, `CORP\jdoe`) and domains → exact entity terms;
 * - `type:ip`, `status:completed`, `verdict:malicious`, `persona:"SOC Analyst"`, and typed values
 *   `ip:…`, `user:…`, `host:…`, `domain:…`, `entity:…`;
 * - everything else, including "quoted phrases", → words (a phrase matches its words in any order).
 * Throws ValidationError when nothing searchable is left or more than MAX_QUERY_TERMS remain.
 */
export function termsForQuery(q: string): { terms: string[] } {
  const query = q.trim();
  if (query.length === 0 || query.length > 256) {
    throw new ValidationError('The search query must be 1-256 characters.', [
      { path: 'query.q', message: 'must be 1-256 characters' },
    ]);
  }
  const terms = new Set<string>();
  for (const match of query.matchAll(TOKEN)) {
    const [, quotedKey, quotedValue, phrase, bare] = match;
    if (phrase !== undefined) {
      for (const word of wordsOf(phrase)) terms.add(`w:${word}`);
      continue;
    }
    let key = quotedKey?.toLowerCase();
    let value = quotedValue;
    if (bare !== undefined) {
      const colon = bare.indexOf(':');
      const candidate = colon > 0 ? bare.slice(0, colon).toLowerCase() : undefined;
      if (candidate && candidate in FIELD_PREFIXES && colon < bare.length - 1) {
        key = candidate;
        value = bare.slice(colon + 1);
      } else {
        const token = bare.replace(EDGE_PUNCTUATION, '');
        for (const term of bareTokenTerms(token)) terms.add(term);
        continue;
      }
    }
    const field = key === undefined ? undefined : FIELD_PREFIXES[key];
    if (!field || value === undefined) {
      for (const word of wordsOf(`${key ?? ''} ${value ?? ''}`)) terms.add(`w:${word}`);
      continue;
    }
    const text = value.trim();
    if (!text) continue;
    switch (field) {
      case 'type': {
        const type = text.toLowerCase();
        if (!isEntityType(type)) {
          throw new ValidationError(`Invalid search term "type:${text}": use ip, user, host or domain.`, [
            { path: 'query.q', message: 'type must be ip, user, host or domain' },
          ]);
        }
        terms.add(`t:${type}`);
        break;
      }
      case 'status':
        terms.add(`s:${slug(text)}`);
        break;
      case 'verdict':
        terms.add(`vd:${slug(text)}`);
        break;
      case 'persona':
        terms.add(`p:${slug(text)}`);
        break;
      case 'value':
        terms.add(entityTerm(text, `${key}:${text}`));
        break;
      default:
        terms.add(entityTerm({ type: field, value: text }, `${key}:${text}`));
    }
  }
  if (terms.size === 0) {
    throw new ValidationError(
      'The search query has nothing searchable: give an entity (IP, user, domain) or words that are not stop words.',
      [{ path: 'query.q', message: 'no searchable terms' }],
    );
  }
  if (terms.size > MAX_QUERY_TERMS) {
    throw new ValidationError(
      `The search query has ${terms.size} terms; at most ${MAX_QUERY_TERMS} are allowed.`,
      [{ path: 'query.q', message: `at most ${MAX_QUERY_TERMS} terms` }],
    );
  }
  return { terms: [...terms].sort((a, b) => termRank(a) - termRank(b) || (a < b ? -1 : a > b ? 1 : 0)) };
}
