import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config';
import {
  elasticAlertQuery,
  recordsFromResponse,
  SENTINEL_API_VERSION,
  type SiemFormat,
  sentinelListParams,
  splunkNotableSearch,
} from '../domain/siem';
import * as z from '../zod';

/**
 * HTTP clients of the pull connectors, one per SIEM, each reading one pull window through the
 * SIEM's public API:
 *
 * - Sentinel: `GET <workspace>/providers/Microsoft.SecurityInsights/incidents` (filtered and ordered
 *   by lastModifiedTimeUtc, following `nextLink`), plus `POST …/incidents/{name}/entities` per
 *   incident, attached as `relatedEntities`. Token: OAuth client credentials against Entra ID.
 * - Splunk: `POST /services/search/jobs` with `exec_mode=oneshot` running the notable search,
 *   `Authorization: Bearer <token>`.
 * - Elastic: `POST <kibana>/api/detection_engine/signals/search`, paged with `search_after`,
 *   `Authorization: ApiKey <key>`.
 *
 * Records are returned raw; mapping (mapSiemRecord) and everything after it is the sync service's.
 * Plain http is refused except to the loopback address, so a credential is never sent in clear
 * text over a network.
 */
export interface PullWindow {
  from: string;
  to: string;
}

export interface SiemFetchResult {
  records: unknown[];
  /** False when the window had more records than `maxRecords`: the run continues next time. */
  completed: boolean;
}

export interface SiemClient {
  readonly format: SiemFormat;
  fetchWindow(window: PullWindow, maxRecords: number): Promise<SiemFetchResult>;
}

export class SiemRequestError extends Error {
  override readonly name = 'SiemRequestError';
}

const REQUEST_TIMEOUT_MS = 20_000;
const PAGE_SIZE = 50;

const sentinelCredentials = /* @__PURE__ */ (() =>
  z.union([
    z.object({ access_token: z.string().check(z.minLength(1)) }),
    z.object({
      tenant_id: z.string().check(z.minLength(1)),
      client_id: z.string().check(z.minLength(1)),
      client_secret: z.string().check(z.minLength(1)),
      /** Only to point a test at a local token endpoint; defaults to Entra ID. */
      token_url: z.optional(z.url()),
    }),
  ]))();
const splunkCredentials = /* @__PURE__ */ (() => z.object({ token: z.string().check(z.minLength(1)) }))();
const elasticCredentials = /* @__PURE__ */ (() => z.object({ api_key: z.string().check(z.minLength(1)) }))();

export type FetchLike = typeof fetch;

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function assertSafeEndpoint(raw: string, what: string): URL {
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url))) {
    throw new Error(`${what} must be an https URL (http is accepted only for 127.0.0.1).`);
  }
  return url;
}

function joinUrl(base: string, path: string, params?: Record<string, string>): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(params ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

async function requestJson(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  what: string,
): Promise<unknown> {
  const response = await fetchImpl(url, {
    ...init,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    redirect: 'error',
  });
  if (!response.ok) {
    // The body may echo request details; only the status is reported.
    await response.body?.cancel().catch(() => undefined);
    throw new SiemRequestError(`${what} answered HTTP ${response.status}.`);
  }
  try {
    return await response.json();
  } catch {
    throw new SiemRequestError(`${what} did not answer with JSON.`);
  }
}

export class SentinelClient implements SiemClient {
  readonly format = 'sentinel' as const;
  private token: { value: string; expiresAt: number } | undefined;

  constructor(
    private readonly workspaceUrl: string,
    private readonly credentials: z.infer<typeof sentinelCredentials>,
    private readonly fetchImpl: FetchLike = fetch,
  ) {
    assertSafeEndpoint(workspaceUrl, 'The Sentinel workspace URL');
  }

  private async bearer(): Promise<string> {
    if ('access_token' in this.credentials) return this.credentials.access_token;
    if (this.token && this.token.expiresAt > Date.now() + 60_000) return this.token.value;
    const c = this.credentials;
    const tokenUrl =
      c.token_url ?? `https://login.microsoftonline.com/${encodeURIComponent(c.tenant_id)}/oauth2/v2.0/token`;
    assertSafeEndpoint(tokenUrl, 'The Sentinel token URL');
    const body = await requestJson(
      this.fetchImpl,
      tokenUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: c.client_id,
          client_secret: c.client_secret,
          scope: 'https://management.azure.com/.default',
        }).toString(),
      },
      'The Entra ID token endpoint',
    );
    const token = z
      .object({ access_token: z.string().check(z.minLength(1)), expires_in: z.coerce.number() })
      .parse(body);
    this.token = { value: token.access_token, expiresAt: Date.now() + token.expires_in * 1000 };
    return token.access_token;
  }

  async fetchWindow(window: PullWindow, maxRecords: number): Promise<SiemFetchResult> {
    const headers = { authorization: `Bearer ${await this.bearer()}`, accept: 'application/json' };
    const base = `${this.workspaceUrl.replace(/\/+$/, '')}/providers/Microsoft.SecurityInsights`;
    const records: Record<string, unknown>[] = [];
    let url: string | undefined = joinUrl(base, '/incidents', sentinelListParams(window, PAGE_SIZE));
    while (url && records.length < maxRecords) {
      const page = (await requestJson(this.fetchImpl, url, { headers }, 'Sentinel')) as {
        nextLink?: unknown;
      };
      records.push(...(recordsFromResponse('sentinel', page) as Record<string, unknown>[]));
      const next = typeof page.nextLink === 'string' ? page.nextLink : undefined;
      // nextLink must stay on the API host it came from: the bearer token is sent to it.
      url = next && new URL(next).origin === new URL(base).origin ? next : undefined;
    }
    const kept = records.slice(0, maxRecords);
    for (const record of kept) {
      const name = typeof record.name === 'string' ? record.name : undefined;
      if (!name) continue;
      const entities = await requestJson(
        this.fetchImpl,
        joinUrl(base, `/incidents/${encodeURIComponent(name)}/entities`, {
          'api-version': SENTINEL_API_VERSION,
        }),
        { method: 'POST', headers },
        'Sentinel (incident entities)',
      );
      const list = (entities as { entities?: unknown }).entities;
      if (Array.isArray(list)) record.relatedEntities = list;
    }
    return { records: kept, completed: url === undefined && records.length <= maxRecords };
  }
}

export class SplunkClient implements SiemClient {
  readonly format = 'splunk' as const;

  constructor(
    private readonly managementUrl: string,
    private readonly credentials: z.infer<typeof splunkCredentials>,
    private readonly fetchImpl: FetchLike = fetch,
  ) {
    assertSafeEndpoint(managementUrl, 'The Splunk management URL');
  }

  async fetchWindow(window: PullWindow, maxRecords: number): Promise<SiemFetchResult> {
    // One more than wanted tells whether the window holds more.
    const search = `${splunkNotableSearch(window)} | head ${maxRecords + 1}`;
    const body = await requestJson(
      this.fetchImpl,
      joinUrl(this.managementUrl, '/services/search/jobs'),
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.credentials.token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          search,
          exec_mode: 'oneshot',
          output_mode: 'json',
          count: '0',
        }).toString(),
      },
      'Splunk',
    );
    const records = recordsFromResponse('splunk', body);
    return { records: records.slice(0, maxRecords), completed: records.length <= maxRecords };
  }
}

export class ElasticClient implements SiemClient {
  readonly format = 'elastic' as const;

  constructor(
    private readonly kibanaUrl: string,
    private readonly credentials: z.infer<typeof elasticCredentials>,
    private readonly fetchImpl: FetchLike = fetch,
  ) {
    assertSafeEndpoint(kibanaUrl, 'The Kibana URL');
  }

  async fetchWindow(window: PullWindow, maxRecords: number): Promise<SiemFetchResult> {
    const records: unknown[] = [];
    let searchAfter: unknown[] | undefined;
    for (;;) {
      const query = {
        ...elasticAlertQuery(window, PAGE_SIZE),
        // A tiebreaker so search_after never skips alerts sharing a timestamp.
        sort: [{ '@timestamp': { order: 'asc' } }, { 'kibana.alert.uuid': { order: 'asc' } }],
        ...(searchAfter ? { search_after: searchAfter } : {}),
      };
      const body = await requestJson(
        this.fetchImpl,
        joinUrl(this.kibanaUrl, '/api/detection_engine/signals/search'),
        {
          method: 'POST',
          headers: {
            authorization: `ApiKey ${this.credentials.api_key}`,
            'content-type': 'application/json',
            'kbn-xsrf': 'true',
          },
          body: JSON.stringify(query),
        },
        'Elastic',
      );
      const hits = recordsFromResponse('elastic', body) as { sort?: unknown[] }[];
      records.push(...hits);
      if (records.length >= maxRecords) {
        return { records: records.slice(0, maxRecords), completed: false };
      }
      const last = hits.at(-1)?.sort;
      if (hits.length < PAGE_SIZE || !Array.isArray(last)) return { records, completed: true };
      searchAfter = last;
    }
  }
}

/** What configures one connector: the endpoint plus where its credentials are. */
export interface ConnectorSettings {
  format: SiemFormat;
  url: string;
  secretArn?: string | undefined;
  credentials?: string | undefined;
}

export function configuredConnectors(cfg: Config): ConnectorSettings[] {
  const all: ConnectorSettings[] = [
    {
      format: 'sentinel',
      url: cfg.SIS_SIEM_SENTINEL_URL ?? '',
      secretArn: cfg.SIS_SIEM_SENTINEL_SECRET_ARN,
      credentials: cfg.SIS_SIEM_SENTINEL_CREDENTIALS,
    },
    {
      format: 'splunk',
      url: cfg.SIS_SIEM_SPLUNK_URL ?? '',
      secretArn: cfg.SIS_SIEM_SPLUNK_SECRET_ARN,
      credentials: cfg.SIS_SIEM_SPLUNK_CREDENTIALS,
    },
    {
      format: 'elastic',
      url: cfg.SIS_SIEM_ELASTIC_URL ?? '',
      secretArn: cfg.SIS_SIEM_ELASTIC_SECRET_ARN,
      credentials: cfg.SIS_SIEM_ELASTIC_CREDENTIALS,
    },
  ];
  return all.filter((c) => c.url.length > 0);
}

let secrets: SecretsManagerClient | undefined;

async function loadCredentials(settings: ConnectorSettings, cfg: Config): Promise<unknown> {
  let raw = settings.credentials;
  if (settings.secretArn) {
    // Imported here so only a connector with a secret loads the Secrets Manager client.
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    secrets ??= new SecretsManagerClient({ region: cfg.AWS_REGION });
    const secret = await secrets.send(new GetSecretValueCommand({ SecretId: settings.secretArn }));
    raw = secret.SecretString;
  }
  if (!raw) throw new Error(`The ${settings.format} connector has no credentials configured.`);
  try {
    return JSON.parse(raw);
  } catch {
    // Never echo the value: it is a credential.
    throw new Error(`The ${settings.format} connector's credentials are not a JSON object.`);
  }
}

function parseCredentials<T>(schema: z.core.$ZodType<T>, value: unknown, format: SiemFormat): T {
  const result = z.safeParse(schema, value);
  if (!result.success) {
    const fields = [...new Set(result.error.issues.map((i) => i.path.join('.') || '(object)'))].join(', ');
    throw new Error(`The ${format} connector's credentials are incomplete or malformed (${fields}).`);
  }
  return result.data;
}

export async function createSiemClient(
  settings: ConnectorSettings,
  cfg: Config,
  fetchImpl: FetchLike = fetch,
): Promise<SiemClient> {
  const credentials = await loadCredentials(settings, cfg);
  switch (settings.format) {
    case 'sentinel':
      return new SentinelClient(
        settings.url,
        parseCredentials(sentinelCredentials, credentials, 'sentinel'),
        fetchImpl,
      );
    case 'splunk':
      return new SplunkClient(
        settings.url,
        parseCredentials(splunkCredentials, credentials, 'splunk'),
        fetchImpl,
      );
    case 'elastic':
      return new ElasticClient(
        settings.url,
        parseCredentials(elasticCredentials, credentials, 'elastic'),
        fetchImpl,
      );
  }
}
