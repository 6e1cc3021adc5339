import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A local stand-in for the nine threat-intelligence providers, speaking each one's documented path,
 * method and auth header, and answering with fixtures built from the providers' documented examples
 * (test/fixtures/intel). Each provider lives under its own prefix (`/<connector>`), so a test points
 * SIS_INTEL_<NAME>_URL at `${baseUrl}/<connector>`. A request without the expected key is refused
 * as the provider would (401). `behave()` makes a provider answer 429, 500 or hang for one indicator.
 * Every request is recorded (without its key) for assertions such as "nothing was sent".
 */

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/intel');
export const intelFixture = (name: string): unknown =>
  JSON.parse(readFileSync(`${FIXTURES}/${name}`, 'utf8'));

interface ProviderRoute {
  method: 'GET' | 'POST';
  keyHeader: string | null;
  /** The indicator the request asks about, or null when the path is not the provider's. */
  indicator(path: string, url: URL, body: string): string | null;
  found: string;
  /** Status and fixture of the documented "not found" answer. */
  notFound: [number, string];
}

const lastSegment =
  (prefix: string, suffix = '') =>
  (path: string) => {
    if (!path.startsWith(prefix) || !path.endsWith(suffix)) return null;
    const rest = path.slice(prefix.length, path.length - suffix.length);
    return rest && !rest.includes('/') ? decodeURIComponent(rest) : null;
  };
const jsonField = (field: string) => (body: string) => {
  try {
    return String((JSON.parse(body) as Record<string, unknown>)[field] ?? '') || null;
  } catch {
    return null;
  }
};

export const PROVIDER_ROUTES: Record<string, ProviderRoute> = {
  abuseipdb: {
    method: 'GET',
    keyHeader: 'key',
    indicator: (path, url) => (path === '/check' ? url.searchParams.get('ipAddress') : null),
    found: 'abuseipdb-check.json',
    notFound: [200, 'abuseipdb-check.json'],
  },
  greynoise: {
    method: 'GET',
    keyHeader: 'key',
    indicator: lastSegment('/v3/community/'),
    found: 'greynoise-community.json',
    notFound: [404, 'greynoise-not-found.json'],
  },
  internetdb: {
    method: 'GET',
    keyHeader: null,
    indicator: lastSegment('/'),
    found: 'internetdb-host.json',
    notFound: [404, 'internetdb-not-found.json'],
  },
  urlhaus: {
    method: 'POST',
    keyHeader: 'auth-key',
    indicator: (path, _url, body) => (path === '/v1/host/' ? new URLSearchParams(body).get('host') : null),
    found: 'urlhaus-host.json',
    notFound: [200, 'urlhaus-no-results.json'],
  },
  threatfox: {
    method: 'POST',
    keyHeader: 'auth-key',
    indicator: (path, _url, body) => (path === '/api/v1/' ? jsonField('search_term')(body) : null),
    found: 'threatfox-search-ioc.json',
    notFound: [200, 'threatfox-no-result.json'],
  },
  otx: {
    method: 'GET',
    keyHeader: 'x-otx-api-key',
    indicator: (path) =>
      /^\/api\/v1\/indicators\/(?:IPv4|IPv6|domain|hostname)\/([^/]+)\/general$/.exec(path)?.[1] ?? null,
    found: 'otx-general.json',
    notFound: [404, 'otx-general.json'],
  },
  crowdsec: {
    method: 'GET',
    keyHeader: 'x-api-key',
    indicator: lastSegment('/v2/smoke/'),
    found: 'crowdsec-smoke.json',
    notFound: [404, 'crowdsec-not-found.json'],
  },
  virustotal: {
    method: 'GET',
    keyHeader: 'x-apikey',
    indicator: (path) => /^\/(?:ip_addresses|domains)\/([^/]+)$/.exec(path)?.[1] ?? null,
    found: 'virustotal-ip-address.json',
    notFound: [404, 'virustotal-not-found.json'],
  },
  misp: {
    method: 'POST',
    keyHeader: 'authorization',
    indicator: (path, _url, body) => (path === '/attributes/restSearch' ? jsonField('value')(body) : null),
    found: 'misp-attributes-restsearch.json',
    notFound: [200, 'misp-empty.json'],
  },
};

export type Behaviour = 'found' | 'not_found' | 'rate_limited' | 'server_error' | 'hang';

export interface RecordedRequest {
  provider: string;
  method: string;
  path: string;
  indicator: string | null;
  /** Whether the expected key arrived in the provider's header (the key itself is not recorded). */
  authenticated: boolean;
}

export interface IntelFakeServer {
  baseUrl: string;
  requests: RecordedRequest[];
  urlFor(provider: string): string;
  /** How a provider answers about one indicator (default: found). */
  behave(provider: string, indicator: string, behaviour: Behaviour): void;
  requestsFor(provider: string, indicator?: string): RecordedRequest[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => resolveBody(body));
    request.on('error', reject);
  });
}

export async function startIntelFakeServer(keys: Record<string, string>): Promise<IntelFakeServer> {
  const requests: RecordedRequest[] = [];
  const behaviours = new Map<string, Behaviour>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const [, provider = '', ...rest] = url.pathname.split('/');
    const path = `/${rest.join('/')}`;
    const body = await readBody(request);
    const route = PROVIDER_ROUTES[provider];
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(payload));
    };
    if (!route) return send(404, { error: 'unknown provider' });
    const indicator = route.indicator(path, url, body);
    const expected = keys[provider];
    const authenticated =
      route.keyHeader === null || (!!expected && request.headers[route.keyHeader] === expected);
    requests.push({ provider, method: request.method ?? '', path, indicator, authenticated });
    if (request.method !== route.method || indicator === null) return send(404, { error: 'no such path' });
    if (!authenticated) return send(401, { errors: [{ detail: 'Authentication failed.' }] });
    switch (behaviours.get(`${provider}|${indicator}`) ?? 'found') {
      case 'found':
        return send(200, intelFixture(route.found));
      case 'not_found':
        return send(route.notFound[0], intelFixture(route.notFound[1]));
      case 'rate_limited':
        return send(429, { errors: [{ detail: 'Daily rate limit exceeded.' }] }, { 'retry-after': '0' });
      case 'server_error':
        return send(503, { error: 'unavailable' });
      case 'hang':
        hanging.add(response);
        return;
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    urlFor: (provider) => `${baseUrl}/${provider}`,
    behave: (provider, indicator, behaviour) => behaviours.set(`${provider}|${indicator}`, behaviour),
    requestsFor: (provider, indicator) =>
      requests.filter(
        (r) => r.provider === provider && (indicator === undefined || r.indicator === indicator),
      ),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}
