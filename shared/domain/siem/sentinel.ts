import * as z from '../../zod';
import type { NormalisedIncident } from '../incidents/incident';
import {
  collectEntities,
  type EntityCandidate,
  finish,
  fitDescription,
  fitTitle,
  hostOfUrl,
  parseNative,
  safeUrl,
  stringsOf,
} from './common';

/**
 * Microsoft Sentinel incidents: the Azure REST resource `Microsoft.SecurityInsights/incidents`
 * (`GET .../providers/Microsoft.SecurityInsights/incidents`, items of `value`). Sentinel keeps
 * entities behind a separate call (`POST .../incidents/{id}/entities`); the pull connector attaches
 * that answer's `entities` array to the record as `relatedEntities`.
 */
const sentinelEntity = /* @__PURE__ */ (() =>
  z.looseObject({
    kind: z.string(),
    properties: z.optional(z.looseObject({})),
  }))();

const sentinelIncident = /* @__PURE__ */ (() =>
  z.looseObject({
    id: z.optional(z.string()),
    name: z.string().check(z.minLength(1, 'the incident GUID (name) is required')),
    properties: z.looseObject({
      title: z.string().check(z.minLength(1)),
      description: z.nullish(z.string()),
      // High | Medium | Low | Informational and New | Active | Closed; mapped through the shared
      // synonym tables so a value Microsoft adds later fails loudly instead of being guessed.
      severity: z.string(),
      status: z.string(),
      classification: z.nullish(z.string()),
      incidentNumber: z.optional(z.number().check(z.int())),
      incidentUrl: z.optional(z.string()),
      createdTimeUtc: z.string(),
      lastModifiedTimeUtc: z.optional(z.string()),
      relatedEntities: z.optional(z.array(sentinelEntity)),
    }),
    relatedEntities: z.optional(z.array(sentinelEntity)),
    entities: z.optional(z.array(sentinelEntity)),
  }))();

export type SentinelIncident = z.infer<typeof sentinelIncident>;

function text(properties: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = properties?.[key];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** Sentinel entity kinds that carry one of our four entity types; others (File, Process...) are skipped. */
export function sentinelEntityCandidates(entity: z.infer<typeof sentinelEntity>): EntityCandidate[] {
  const p = entity.properties as Record<string, unknown> | undefined;
  switch (entity.kind) {
    case 'Account': {
      const name = text(p, 'accountName');
      const upn = text(p, 'upnSuffix');
      const domain = text(p, 'ntDomain');
      if (name && upn) return [{ type: 'user', value: `${name}@${upn}` }];
      if (name && domain) return [{ type: 'user', value: `${domain}\\${name}` }];
      const fallback = name ?? text(p, 'friendlyName');
      return fallback ? [{ type: 'user', value: fallback }] : [];
    }
    case 'Mailbox': {
      const address = text(p, 'mailboxPrimaryAddress');
      return address ? [{ type: 'user', value: address }] : [];
    }
    case 'Ip': {
      const address = text(p, 'address');
      return address ? [{ type: 'ip', value: address }] : [];
    }
    case 'Host': {
      const host = text(p, 'hostName') ?? text(p, 'netBiosName');
      return host ? [{ type: 'host', value: host }] : [];
    }
    case 'DnsResolution': {
      const domain = text(p, 'domainName');
      const ips = stringsOf(p?.ipAddresses).map((value) => ({ type: 'ip' as const, value }));
      return [...(domain ? [{ type: 'domain' as const, value: domain }] : []), ...ips];
    }
    case 'Url': {
      const url = text(p, 'url');
      const host = url ? hostOfUrl(url) : undefined;
      return host ? [{ value: host }] : [];
    }
    default:
      return [];
  }
}

export function mapSentinelIncident(record: unknown): NormalisedIncident {
  const incident = parseNative(sentinelIncident, record, 'Microsoft Sentinel incident');
  const p = incident.properties;
  const related = [
    ...(incident.relatedEntities ?? []),
    ...(p.relatedEntities ?? []),
    ...(incident.entities ?? []),
  ];
  return finish(
    {
      source: 'sentinel',
      source_id: incident.name,
      title: fitTitle(p.title),
      description: fitDescription(p.description ?? undefined),
      severity: p.severity,
      status: p.status,
      created_at: p.createdTimeUtc,
      updated_at: p.lastModifiedTimeUtc,
      url: safeUrl(p.incidentUrl),
      entities: collectEntities(related.flatMap(sentinelEntityCandidates)),
    },
    'Microsoft Sentinel incident',
  );
}

/** The time the pull connector orders and filters by. */
export function sentinelModifiedAt(record: SentinelIncident): string {
  return record.properties.lastModifiedTimeUtc ?? record.properties.createdTimeUtc;
}

export const SENTINEL_API_VERSION = '2024-03-01';

/**
 * Query parameters of the incident list call for one pull window: oldest change first, so a run cut
 * short still advances the watermark monotonically. The caller adds the workspace path and follows
 * `nextLink` for further pages.
 */
export function sentinelListParams(
  window: { from: string; to: string },
  pageSize = 50,
): Record<string, string> {
  return {
    'api-version': SENTINEL_API_VERSION,
    $filter: `properties/lastModifiedTimeUtc ge ${window.from} and properties/lastModifiedTimeUtc lt ${window.to}`,
    $orderby: 'properties/lastModifiedTimeUtc asc',
    $top: String(pageSize),
  };
}
