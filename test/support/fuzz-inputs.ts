import fc from 'fast-check';
import type { RouteDefinition } from '../../shared/api/route-types';
import { normaliseIngestBatch } from '../../shared/domain/siem';
import * as z from '../../shared/zod';
import type { RawRequest } from './fuzz-http';

/**
 * Adversarial HTTP requests for one route of the route table, as fast-check arbitraries: wrong types,
 * missing and extra fields, huge strings, deep nesting, unicode and control characters, invalid
 * entities, path values with `..` and `%00`, malformed percent-encoding, very long IDs, bad cursors
 * and dates, negative and huge limits, wrong and duplicated content types, invalid JSON and bodies
 * over the limit. Everything is derived from the route's declaration (method, path template, query
 * keys, whether it takes a body), so a route added to ROUTES is fuzzed without touching this file.
 *
 * {@link mayChangeState} is the oracle the suites use to skip a generated request that could be
 * legitimately accepted by a route with side effects: what remains must change no stored state.
 */
export interface FuzzTargets {
  /** Key IDs that exist (rotate is fuzzed against them only with a body the schema refuses). */
  realKeyIds: readonly string[];
  /** Sessions whose cancel cannot change anything: another key's, and the caller's completed ones. */
  inertSessionIds: readonly string[];
  /** Readable sessions of the caller (poll and report are fuzzed on them). */
  ownSessionIds: readonly string[];
}

export interface FuzzRequest extends RawRequest {
  headers: Record<string, string | string[]>;
  route: RouteDefinition;
  /** The path names a real key that a valid body would change. */
  realTarget: boolean;
  /** Short description for failure messages (the request itself can be megabytes). */
  label: string;
}

export const BODY_LIMIT_BYTES = 1_048_576;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const charsOf = (alphabet: string, length: number) =>
  fc
    .array(fc.constantFrom(...alphabet.split('')), { minLength: length, maxLength: length })
    .map((chars) => chars.join(''));

/** Well-formed IDs that name nothing. */
const unknownKeyId = charsOf(BASE32, 16);
const unknownSessionId = charsOf(CROCKFORD, 26).map((s) => `s_${s}`);

const CONTROL = Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).concat(['\u007f', '\u0085']);

/** Strings a careless parser, normaliser or logger trips over. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '..',
    '../../etc/passwd',
    '..\\..\\windows\\win.ini',
    '\u0000',
    'a\u0000b',
    'null',
    'undefined',
    'NaN',
    '[object Object]',
    '__proto__',
    'constructor',
    'prototype',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    '😀'.repeat(80),
    'ｅｘａｍｐｌｅ．ｃｏｍ',
    'xn--',
    'xn--zz',
    '\ud800',
    '\udfff\ud800',
    '\r\nX-Injected: 1',
    "' OR '1'='1",
    '"; DROP TABLE keys; --',
    '<script>alert(1)</script>',
    ['$', '{jndi:ldap://127.0.0.1/a}'].join(''), // a log4j lookup, not a template
    '{{7*7}}',
    '%s%s%s%n',
    '%00',
    '%',
    '\\',
    '1.2.3.4.5',
    '999.999.999.999',
    '::ffff:999.1.1.1',
    'a'.repeat(257),
    'b'.repeat(5_000),
    '\u00e9'.repeat(300),
  ),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: fc.constantFrom(...CONTROL), minLength: 1, maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.integer({ min: 257, max: 70_000 }).map((n) => 'x'.repeat(n)),
);

/**
 * A request line beyond ~16 KiB is refused by Node's HTTP parser (431) before the gateway runs, as
 * API Gateway refuses URLs over 10 KiB; path and query values stay below that so they reach the
 * service. (The transport limit has its own test.)
 */
const MAX_WIRE_VALUE = 3_000;

/** Nesting deep enough to hurt a recursive walker: `[[[…]]]` or `{"a":{"a":…}}`, as raw JSON text. */
export const deepJson = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );

/** Any JSON value of a wrong kind, including deep nesting (as a marker replaced after stringify). */
const DEEP_MARKER = '"__deep_json_marker__"';
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  fc.integer(),
  fc.constantFrom(-1, 0, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.constant('__deep_json_marker__'),
);

const numberGarbage = fc.constantFrom(
  '-1',
  '0',
  '101',
  '100000000000000000000000',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  ' 5',
  '5 ',
  '',
  '2',
  '1',
  '20',
  '9'.repeat(400),
);
const dateGarbage = fc.constantFrom(
  '2026-13-45',
  '2026-02-30T00:00:00Z',
  'yesterday',
  '0000-00-00T00:00:00Z',
  '9999-99-99',
  '1970-01-01T00:00:00+25:00',
  '2026-11-01T00:00:00',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '2026-11-01T00:00:00Z',
  '1e12',
);
const cursorGarbage = fc.oneof(
  fc.base64String({ maxLength: 200 }),
  fc.string({ unit: fc.constantFrom(...'ABCxyz-_019'.split('')), maxLength: 64 }),
  fc.constantFrom('a'.repeat(3_000), '!!!', 'eyJ2IjoxfQ', 'bnVsbA', 'W10', 'e30'),
  fc
    .record({ v: fc.oneof(fc.constant(1), wrongValue), b: fc.string(), p: wrongValue })
    .map((envelope) => Buffer.from(JSON.stringify(envelope)).toString('base64url')),
);

const queryValue = fc.oneof(numberGarbage, dateGarbage, cursorGarbage, nastyString);

/** A percent-encoded wire value; a lone surrogate cannot be encoded and goes as invalid UTF-8 bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value)
      .slice(0, MAX_WIRE_VALUE)
      .replace(/%[0-9A-F]?$/, '');
  } catch {
    return '%ED%A0%80';
  }
}

/** Path segments as they go on the wire, including raw malformed percent sequences. */
function segmentArbitrary(param: string, targets: FuzzTargets, route: RouteDefinition) {
  const rawSegments = fc.constantFrom(
    '..',
    '.',
    '%2e%2e',
    '%2E%2E%2F%2E%2E%2Fadmin%2Fkeys',
    '..%2f..%2fadmin%2fkeys',
    '%00',
    'abc%00def',
    '%',
    '%zz',
    '%E0%A4%A',
    '%C0%AF',
    '%ff%fe',
    '%ED%A0%80',
    ';',
    'a;b=c',
    '%0d%0aSet-Cookie:%20x=y',
    '%252e%252e',
    'x'.repeat(6_000),
  );
  const encoded = nastyString.map(encode);
  const choices: fc.Arbitrary<{ segment: string; real: boolean }>[] = [
    rawSegments.map((segment) => ({ segment, real: false })),
    encoded.map((segment) => ({ segment, real: false })),
  ];
  if (param === 'key_id') {
    choices.push(unknownKeyId.map((segment) => ({ segment, real: false })));
    if (route.operationId === 'rotateApiKey' && targets.realKeyIds.length) {
      choices.push(fc.constantFrom(...targets.realKeyIds).map((segment) => ({ segment, real: true })));
    }
  }
  if (param === 'session_id') {
    choices.push(unknownSessionId.map((segment) => ({ segment, real: false })));
    const known = route.method === 'GET' ? targets.ownSessionIds : targets.inertSessionIds;
    if (known.length) choices.push(fc.constantFrom(...known).map((segment) => ({ segment, real: false })));
  }
  return fc.oneof(...choices);
}

function queryKeys(route: RouteDefinition): string[] {
  const shape = (route.request.query as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function queryArbitrary(route: RouteDefinition): fc.Arbitrary<string> {
  const known = queryKeys(route);
  const name = known.length
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: nastyString })
    : nastyString;
  const rawValues = fc.constantFrom('%', '%zz', '%00', '%E0%A4%A', '%ED%A0%80');
  const pair = fc
    .tuple(name, fc.oneof(queryValue.map(encode), rawValues))
    .map(([k, v]) => `${encode(k)}=${v}`);
  return fc
    .array(pair, { maxLength: 6 })
    .chain((pairs) =>
      // Repeat a parameter now and then: `limit=1&limit=500`.
      fc.boolean().map((repeat) => (repeat && pairs[0] ? [...pairs, pairs[0]] : pairs)),
    )
    .map((pairs) => {
      const kept: string[] = [];
      let length = 0;
      for (const pair of pairs) {
        length += pair.length + 1;
        if (length > 2 * MAX_WIRE_VALUE) break;
        kept.push(pair);
      }
      return kept.length ? `?${kept.join('&')}` : '';
    });
}

/** Valid-looking bodies per route, broken by the generic mutations below. */
const BASES: Record<string, Record<string, unknown>> = {
  startInvestigation: {
    entity: { type: 'ip', value: '203.0.113.7' },
    persona: 'SOC Analyst',
    background: true,
  },
  createApiKey: { name: 'fuzz', description: 'fuzz', scopes: ['graph:read'], expires_in_days: 1 },
  rotateApiKey: { grace_period_seconds: 0 },
  ingestIncidents: {
    incidents: [
      {
        source: 'custom',
        source_id: 'fuzz-1',
        title: 'Fuzz incident',
        severity: 'high',
        status: 'new',
        created_at: '2026-11-01T00:00:00Z',
        entities: [{ type: 'ip', value: '203.0.113.9' }],
      },
    ],
  },
};

/** A JSON value derived from the route's base body: fields dropped, replaced by wrong values, added. */
function mutatedBody(route: RouteDefinition): fc.Arbitrary<unknown> {
  const base = BASES[route.operationId] ?? {};
  const fields = Object.keys(base);
  const edit = fc.record({
    drop: fc.subarray(fields),
    replace: fc.dictionary(fields.length ? fc.constantFrom(...fields) : nastyString, wrongValue, {
      maxKeys: 3,
    }),
    extra: fc.dictionary(nastyString, wrongValue, { maxKeys: 2 }),
    nested: fc.option(
      fc.record({ path: fc.constantFrom('entity', 'incidents', 'scopes', 'rate_limit'), value: wrongValue }),
    ),
  });
  const incidentEdits = fc.array(
    fc.record({
      field: fc.constantFrom(
        'source',
        'source_id',
        'title',
        'severity',
        'status',
        'created_at',
        'entities',
        'url',
      ),
      value: wrongValue,
    }),
    { minLength: 1, maxLength: 3 },
  );
  return fc
    .tuple(edit, incidentEdits, fc.constantFrom(undefined, 'sentinel', 'splunk', 'elastic', 'qradar'))
    .map(([e, incidentChanges, format]) => {
      const body: Record<string, unknown> = structuredClone(base);
      for (const field of e.drop) delete body[field];
      Object.assign(body, e.replace, e.extra);
      if (e.nested) body[e.nested.path] = e.nested.value;
      if (route.operationId === 'ingestIncidents' && Array.isArray(body.incidents)) {
        body.incidents = body.incidents.map((record) => {
          if (!record || typeof record !== 'object') return record;
          const copy = { ...(record as Record<string, unknown>) };
          for (const change of incidentChanges) copy[change.field] = change.value;
          return copy;
        });
        if (format) body.format = format;
      }
      return body;
    });
}

const CONTENT_TYPES: fc.Arbitrary<string | string[] | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('application/json', 'application/json; charset=utf-8') },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string | string[] | undefined>(
      'application/vnd.api+json',
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'application/json; charset=utf-16',
      ['application/json', 'text/plain'],
      ['text/plain', 'application/json'],
    ),
  },
);

/** Body text: a mutated JSON value, or raw junk (invalid JSON, deep nesting, over the limit). */
function bodyArbitrary(route: RouteDefinition): fc.Arbitrary<string> {
  const json = mutatedBody(route).map((value) => JSON.stringify(value) ?? 'null');
  const withDeep = fc
    .tuple(json, deepJson)
    .map(([text, deep]) => text.replaceAll(DEEP_MARKER, deep))
    .map((text) => (text.length > 2 * BODY_LIMIT_BYTES ? text.slice(0, 2 * BODY_LIMIT_BYTES) : text));
  const junk = fc.constantFrom(
    '',
    '{',
    '{"a":',
    '[',
    'nul',
    '{"a":1,}',
    "{'a':1}",
    '\u0000',
    '\ufeff{}',
    'null',
    '[]',
    '"text"',
    '1e999',
    '{"__proto__":{"role":"admin","scopes":["investigations:read"]}}',
    '{"constructor":{"prototype":{"admin":true}}}',
  );
  const overLimit = fc
    .integer({ min: 1, max: 4_096 })
    .map((extra) => JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES + extra) }));
  return fc.oneof(
    { weight: 6, arbitrary: withDeep },
    { weight: 2, arbitrary: junk },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: overLimit },
  );
}

/** The key each route is fuzzed with (public routes get none or junk). */
export interface FuzzKeys {
  admin: string;
  client: string;
}

/** The Accept header of a Streamable HTTP client (the MCP specification's transports section). */
const MCP_ACCEPT = 'application/json, text/event-stream';

export function routeRequests(
  route: RouteDefinition,
  servedPath: string,
  targets: FuzzTargets,
  keys: FuzzKeys,
): fc.Arbitrary<FuzzRequest> {
  const params = [...servedPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const segments = fc.tuple(...params.map((p) => segmentArbitrary(p, targets, route)));
  // Any valid key reaches a 'key' route (the MCP endpoint); the client key holds every scope.
  const key =
    route.access.kind === 'admin'
      ? keys.admin
      : route.access.kind === 'scope' || route.access.kind === 'key'
        ? keys.client
        : undefined;
  const idempotency = fc.option(fc.oneof(nastyString, fc.constant('ok-key-1')), { freq: 3 });
  const body = route.method === 'POST' ? fc.option(bodyArbitrary(route), { freq: 8 }) : fc.constant(null);
  return fc
    .record({
      segments,
      query: queryArbitrary(route),
      body,
      contentType: CONTENT_TYPES,
      idempotency,
    })
    .map(({ segments: values, query, body: text, contentType, idempotency: idem }) => {
      let i = 0;
      const path = servedPath.replace(/\{[^}]+\}/g, () => values[i++]?.segment ?? '');
      const headers: Record<string, string | string[]> = {};
      if (key) headers['x-api-key'] = key;
      if (text !== null && contentType !== undefined) headers['content-type'] = contentType;
      // A Streamable HTTP client accepts both answers; without this the MCP SDK answers 406 before
      // the JSON-RPC parser ever sees the fuzzed body.
      if (route.access.kind === 'key') headers.accept = MCP_ACCEPT;
      if (idem !== null && route.operationId === 'startInvestigation') {
        // Header values must be latin1 without CR/LF to go on the wire at all.
        const value = idem.replace(/[^\x20-\x7e]/g, '').slice(0, MAX_WIRE_VALUE);
        if (value) headers['idempotency-key'] = value;
      }
      const realTarget = values.some((v) => v.real);
      const label = `${route.method} ${`${path}${query}`.slice(0, 300)} body=${text === null ? '-' : JSON.stringify(text.slice(0, 160))} (${text?.length ?? 0} chars) ct=${JSON.stringify(contentType)}`;
      return {
        route,
        method: route.method,
        path: `${path}${query}`,
        headers,
        ...(text !== null ? { body: text } : {}),
        realTarget,
        label,
        // fast-check prints counterexamples with this instead of the whole route table entry.
        [fc.toStringMethod]: () => label,
      };
    });
}

/** The handler's view of the body: JSON only with a JSON content type; empty means `{}`. */
function effectiveBody(req: FuzzRequest): { rejected: true } | { rejected: false; value: unknown } {
  const text = typeof req.body === 'string' ? req.body : (req.body?.toString('utf8') ?? '');
  if (text === '') return { rejected: false, value: {} };
  if (Buffer.byteLength(text, 'utf8') > BODY_LIMIT_BYTES) return { rejected: true };
  const contentTypes = req.headers?.['content-type'];
  // The gateway keeps the last value of a repeated header, as API Gateway does.
  const contentType = Array.isArray(contentTypes) ? contentTypes.at(-1) : contentTypes;
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i.test(contentType ?? '')) return { rejected: true };
  try {
    return { rejected: false, value: JSON.parse(text) ?? {} };
  } catch {
    return { rejected: true };
  }
}

/** Whether the body, as the MCP endpoint would read it, holds a JSON-RPC `tools/call` message. */
function callsMcpTool(req: FuzzRequest): boolean {
  const body = effectiveBody(req);
  if (body.rejected) return false;
  const messages = Array.isArray(body.value) ? body.value : [body.value];
  return messages.some(
    (m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call',
  );
}

/**
 * Whether the service could legitimately accept this request and change stored state. Reads never
 * do; a route with a body does only when its schema (and, for ingest, the per-record normaliser)
 * accepts the body and the path names something real or nothing at all.
 */
export function mayChangeState(req: FuzzRequest): boolean {
  const route = req.route;
  if (route.method === 'GET' || route.access.kind === 'public') return false;
  // The MCP endpoint: GET and DELETE only answer 405; a POST changes state only through a tools/call
  // (investigate_entity starts an investigation), whatever the other messages of a batch say.
  if (route.access.kind === 'key') return route.method === 'POST' && callsMcpTool(req);
  const hasParams = /\{[^}]+\}/.test(route.path);
  if (!route.request.body) return hasParams ? req.realTarget : true;
  if (hasParams && !req.realTarget) return false;
  const body = effectiveBody(req);
  if (body.rejected) return false;
  const parsed = z.safeParse(route.request.body, body.value);
  if (!parsed.success) return false;
  if (route.operationId === 'ingestIncidents') {
    try {
      return normaliseIngestBatch(parsed.data as never).incidents.length > 0;
    } catch {
      return false;
    }
  }
  return true;
}
