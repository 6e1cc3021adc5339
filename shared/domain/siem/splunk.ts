import * as z from '../../zod';
import {
  type IncidentStatus,
  type NormalisedIncident,
  normaliseSeverity,
  normaliseStatus,
  toIsoUtc,
} from '../incidents/incident';
import {
  collectEntities,
  type EntityCandidate,
  finish,
  firstString,
  fitDescription,
  fitTitle,
  hostOfUrl,
  parseNative,
  safeUrl,
  stringsOf,
} from './common';

/**
 * Splunk Enterprise Security notable events, as rows of the `` `notable` `` macro returned by the
 * search REST API (`output_mode=json`, items of `results`). Splunk returns every value as a
 * string and multivalue fields as arrays; CIM field names (src, dest, user...) carry the entities.
 */
const fieldValue = /* @__PURE__ */ (() =>
  z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]))();

const splunkNotable = /* @__PURE__ */ (() =>
  z
    .looseObject({
      event_id: z.string().check(z.minLength(1, 'event_id is required')),
      _time: z.union([z.string(), z.number()], {
        error: 'required: the time of the notable (ISO 8601 or epoch seconds)',
      }),
      rule_title: z.optional(fieldValue),
      rule_name: z.optional(fieldValue),
      search_name: z.optional(fieldValue),
      rule_description: z.optional(fieldValue),
      description: z.optional(fieldValue),
      urgency: z.optional(fieldValue),
      severity: z.optional(fieldValue),
      status: z.optional(fieldValue),
      status_label: z.optional(fieldValue),
      review_time: z.optional(fieldValue),
      drilldown_url: z.optional(fieldValue),
    })
    .check(
      z.refine((n) => firstString(n.rule_title ?? n.rule_name ?? n.search_name), {
        message: 'one of rule_title, rule_name or search_name is required',
        path: ['rule_name'],
      }),
    ))();

export type SplunkNotable = z.infer<typeof splunkNotable>;

/** ES's default status table (`reviewstatuses.conf`), for rows that carry only the numeric status. */
const NUMERIC_STATUS: Record<string, IncidentStatus> = {
  '0': 'new',
  '1': 'new',
  '2': 'active',
  '3': 'active',
  '4': 'resolved',
  '5': 'closed',
};

export function splunkStatus(notable: Pick<SplunkNotable, 'status' | 'status_label'>): IncidentStatus {
  const label = normaliseStatus(firstString(notable.status_label));
  if (label) return label;
  const status = firstString(notable.status);
  return (status && (NUMERIC_STATUS[status] ?? normaliseStatus(status))) || 'new';
}

const ENTITY_FIELDS: ReadonlyArray<[field: string, type: EntityCandidate['type'] | 'url']> = [
  ['src', undefined],
  ['src_ip', 'ip'],
  ['dest', undefined],
  ['dest_ip', 'ip'],
  ['dvc', undefined],
  ['orig_host', 'host'],
  ['src_host', 'host'],
  ['dest_host', 'host'],
  ['user', 'user'],
  ['src_user', 'user'],
  ['dest_user', 'user'],
  ['url_domain', 'domain'],
  ['url', 'url'],
];

export interface SplunkMappingOptions {
  /** Splunk Web base URL, e.g. `https://splunk.example.com:8000`, to link back to Incident Review. */
  webUrl?: string;
}

export function splunkIncidentReviewUrl(webUrl: string, eventId: string): string | undefined {
  return safeUrl(
    `${webUrl.replace(/\/+$/, '')}/en-US/app/SplunkEnterpriseSecuritySuite/incident_review?search=${encodeURIComponent(
      `event_id="${eventId}"`,
    )}`,
  );
}

export function mapSplunkNotable(record: unknown, options: SplunkMappingOptions = {}): NormalisedIncident {
  const notable = parseNative(splunkNotable, record, 'Splunk notable event');
  const fields = notable as Record<string, unknown>;
  const candidates: EntityCandidate[] = ENTITY_FIELDS.flatMap(([field, type]) =>
    stringsOf(fields[field]).flatMap((value): EntityCandidate[] => {
      if (type === 'url') {
        const host = hostOfUrl(value);
        return host ? [{ value: host }] : [];
      }
      return [type ? { type, value } : { value }];
    }),
  );
  // `unknown` urgency means the search set no severity; ES's own urgency table treats that as low.
  const severity =
    normaliseSeverity(firstString(notable.urgency)) ??
    normaliseSeverity(firstString(notable.severity)) ??
    'low';
  const title =
    firstString(notable.rule_title) ?? firstString(notable.rule_name) ?? firstString(notable.search_name);
  const reviewTime = firstString(notable.review_time);
  return finish(
    {
      source: 'splunk',
      source_id: notable.event_id,
      title: fitTitle(title ?? ''),
      description: fitDescription(firstString(notable.rule_description) ?? firstString(notable.description)),
      severity,
      status: splunkStatus(notable),
      created_at: notable._time,
      updated_at: reviewTime && toIsoUtc(reviewTime) ? reviewTime : undefined,
      url:
        safeUrl(firstString(notable.drilldown_url)) ??
        (options.webUrl ? splunkIncidentReviewUrl(options.webUrl, notable.event_id) : undefined),
      entities: collectEntities(candidates),
    },
    'Splunk notable event',
  );
}

function epochSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/**
 * The SPL the pull connector runs for one window. Notables are found by event time within
 * `maxAgeDays` and kept when they were raised or last reviewed inside the window, so status
 * changes made in Incident Review are synced too.
 */
export function splunkNotableSearch(window: { from: string; to: string }, maxAgeDays = 30): string {
  const from = epochSeconds(window.from);
  const to = epochSeconds(window.to);
  return [
    `search \`notable\` earliest=-${maxAgeDays}d latest=${to}`,
    `| eval sis_modified=max(_time, coalesce(review_time, 0))`,
    `| where sis_modified>=${from} AND sis_modified<${to}`,
    '| sort 0 sis_modified',
  ].join(' ');
}
