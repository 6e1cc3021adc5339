import { ValidationError } from '../core/errors';
import {
  type IncidentStatus,
  type NormalisedIncident,
  normaliseStatus,
  type Severity,
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
  readFirst,
  readPath,
  safeUrl,
  stringsOf,
} from './common';

/**
 * Elastic Security detection alerts (`.alerts-security.alerts-<space>` documents, as returned by
 * `POST /api/detection_engine/signals/search` or an Elasticsearch search). Accepts a search hit
 * (`{_id, _source}` or `{_id, fields}`) or the bare document; alert documents mix flattened
 * `kibana.alert.*` keys with nested ECS objects, and `readPath` reads both.
 */
function documentOf(record: unknown): { doc: unknown; id: string | undefined } {
  if (record === null || typeof record !== 'object' || Array.isArray(record)) {
    throw new ValidationError('Not a valid Elastic Security alert. The record must be a JSON object.');
  }
  const hit = record as Record<string, unknown>;
  const id = typeof hit._id === 'string' ? hit._id : undefined;
  if (hit._source && typeof hit._source === 'object') return { doc: hit._source, id };
  if (hit.fields && typeof hit.fields === 'object') return { doc: hit.fields, id };
  return { doc: hit, id };
}

/** Elastic's own bands for turning a 0-100 rule risk score into a severity. */
export function severityFromRiskScore(score: number): Severity {
  if (score >= 74) return 'critical';
  if (score >= 48) return 'high';
  if (score >= 22) return 'medium';
  return 'low';
}

const WORKFLOW_STATUS: Record<string, IncidentStatus> = {
  open: 'new',
  acknowledged: 'active',
  'in-progress': 'active',
  closed: 'closed',
};

const ENTITY_PATHS: ReadonlyArray<[path: string, type: EntityCandidate['type'] | 'url']> = [
  ['source.ip', 'ip'],
  ['destination.ip', 'ip'],
  ['client.ip', 'ip'],
  ['server.ip', 'ip'],
  ['host.name', 'host'],
  ['user.name', 'user'],
  ['user.email', 'user'],
  ['user.target.name', 'user'],
  ['source.user.name', 'user'],
  ['destination.user.name', 'user'],
  ['url.domain', 'domain'],
  ['destination.domain', 'domain'],
  ['source.domain', 'domain'],
  ['dns.question.name', 'domain'],
  ['url.full', 'url'],
  ['threat.indicator.ip', 'ip'],
  ['threat.enrichments.indicator.ip', 'ip'],
];

/**
 * ECS splits a Windows account into `user.name` and `user.domain`; joined as `CORP\name` it is the
 * same graph node Sentinel and Splunk produce for that account, so it replaces the bare name.
 */
function qualifiedUser(doc: unknown): EntityCandidate[] {
  const name = firstString(readPath(doc, 'user.name'));
  const domain = firstString(readPath(doc, 'user.domain'));
  if (!name || !domain || /[@\\]/.test(name) || domain.includes('.')) return [];
  return [{ type: 'user', value: `${domain}\\${name}` }];
}

function required(doc: unknown, paths: readonly string[], message: string): string {
  const value = firstString(readFirst(doc, paths));
  if (!value) {
    throw new ValidationError(`Not a valid Elastic Security alert. ${message}`, [
      { path: paths[0]!, message },
    ]);
  }
  return value;
}

export function mapElasticAlert(record: unknown): NormalisedIncident {
  const { doc, id } = documentOf(record);
  const sourceId = firstString(readPath(doc, 'kibana.alert.uuid')) ?? id;
  if (!sourceId) {
    throw new ValidationError(
      'Not a valid Elastic Security alert. kibana.alert.uuid (or the hit _id) is required',
      [{ path: 'kibana.alert.uuid', message: 'required' }],
    );
  }
  const title = required(
    doc,
    ['kibana.alert.rule.name', 'signal.rule.name'],
    'kibana.alert.rule.name is required',
  );
  const createdAt = required(
    doc,
    ['kibana.alert.start', '@timestamp', 'kibana.alert.original_time'],
    'kibana.alert.start or @timestamp is required',
  );

  const rawSeverity = firstString(readFirst(doc, ['kibana.alert.severity', 'signal.rule.severity']));
  const riskScore = Number(
    firstString(readFirst(doc, ['kibana.alert.risk_score', 'signal.rule.risk_score'])),
  );
  const severity = rawSeverity ?? (Number.isFinite(riskScore) ? severityFromRiskScore(riskScore) : 'medium');

  const workflow = firstString(
    readFirst(doc, ['kibana.alert.workflow_status', 'signal.status']),
  )?.toLowerCase();
  const status = (workflow && (WORKFLOW_STATUS[workflow] ?? normaliseStatus(workflow))) || 'new';

  // The latest of the alert's change times; a malformed one is ignored rather than failing the alert.
  const updatedAt = ['kibana.alert.workflow_status_updated_at', 'kibana.alert.last_detected', '@timestamp']
    .map((path) => toIsoUtc(firstString(readPath(doc, path))))
    .filter((time): time is string => time !== undefined)
    .sort()
    .at(-1);

  const qualified = qualifiedUser(doc);
  const paths = qualified.length > 0 ? ENTITY_PATHS.filter(([path]) => path !== 'user.name') : ENTITY_PATHS;
  const candidates: EntityCandidate[] = [
    ...qualified,
    ...paths.flatMap(([path, type]) =>
      stringsOf(readPath(doc, path)).flatMap((value): EntityCandidate[] => {
        if (type === 'url') {
          const host = hostOfUrl(value);
          return host ? [{ value: host }] : [];
        }
        return [{ type, value }];
      }),
    ),
  ];

  return finish(
    {
      source: 'elastic',
      source_id: sourceId,
      title: fitTitle(title),
      description: fitDescription(
        firstString(
          readFirst(doc, ['kibana.alert.reason', 'kibana.alert.rule.description', 'signal.reason']),
        ),
      ),
      severity,
      status,
      created_at: createdAt,
      updated_at: updatedAt,
      url: safeUrl(firstString(readPath(doc, 'kibana.alert.url'))),
      entities: collectEntities(candidates),
    },
    'Elastic Security alert',
  );
}

/**
 * Search body of the pull connector for one window: alerts raised or whose workflow status changed
 * inside it, oldest first.
 */
export function elasticAlertQuery(window: { from: string; to: string }, size = 100): Record<string, unknown> {
  const range = { gte: window.from, lt: window.to };
  return {
    size,
    // The alert UUID breaks ties, so search_after pages neither skip nor repeat alerts.
    sort: [{ '@timestamp': { order: 'asc' } }, { 'kibana.alert.uuid': { order: 'asc' } }],
    query: {
      bool: {
        minimum_should_match: 1,
        should: [
          { range: { '@timestamp': range } },
          { range: { 'kibana.alert.workflow_status_updated_at': range } },
        ],
      },
    },
  };
}
