import { createHash } from 'node:crypto';
import { attackTechniqueUrl } from '../core/attack';
import type { Entity } from '../core/entity';
import type { Tlp } from '../core/tlp';
import type { Report } from '../core/vocabulary';
import { outsideSourcesLine } from './coverage-sources';

/**
 * An investigation report as a STIX 2.1 bundle (OASIS STIX Version 2.1, 2021): a `report` (the
 * verdict, summary and score) referring to an `identity` (this service), the entities as cyber
 * observables with the spec's deterministic IDs (UUIDv5 over the ID-contributing properties, §2.9),
 * an `indicator` with a STIX pattern when the verdict is malicious, `attack-pattern`s for the ATT&CK
 * techniques of the findings, `relationship`s between them, and the session's TLP 2.0
 * marking-definition (the OASIS CTI TC's published objects) on every object that can carry it.
 * Pure: the same session always gives the same bundle, IDs included.
 */

export const STIX_SCO_NAMESPACE = '00abedb4-aa42-466c-9c01-fed23315a9b7';
/** This service's own namespace for SDO/SRO IDs derived from session IDs (any UUID is valid there). */
export const SIS_STIX_NAMESPACE = 'a3f6c2de-5e0b-4c55-9a8e-2b7f3d1c9e40';

/** When this service's identity and the ATT&CK attack-patterns were defined: fixed, so IDs are stable. */
const DEFINED_AT = '2026-01-01T00:00:00.000Z';

const STIX_CONFIDENCE: Record<NonNullable<Report['confidence']>, number> = { low: 15, medium: 50, high: 85 };

export type StixObject = { type: string; id: string; [key: string]: unknown };

export interface StixBundle {
  type: 'bundle';
  id: string;
  objects: StixObject[];
}

export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 8785 canonical JSON of a flat object of strings: keys sorted, JSON string escaping. */
function canonical(properties: Record<string, string>): string {
  const keys = Object.keys(properties).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(properties[k])}`).join(',')}}`;
}

/** An SCO's ID per STIX 2.1 §2.9: UUIDv5 in the SCO namespace over its ID-contributing properties. */
export function scoId(type: string, contributing: Record<string, string>): string {
  return `${type}--${uuidV5(STIX_SCO_NAMESPACE, canonical(contributing))}`;
}

// ---- TLP 2.0 ----

export const TLP2_EXTENSION_ID = 'extension-definition--60a3c5c5-0d10-413e-aab3-9e08dde9e88d';

/** The OASIS CTI TC's TLP 2.0 marking-definitions (fixed IDs, created 2022-10-01). */
export const TLP2_MARKING_IDS: Readonly<Record<Tlp, string>> = {
  clear: 'marking-definition--94868c89-83c2-464b-929b-a1a8aa3c8487',
  green: 'marking-definition--bab4a63c-aed9-4cf5-a766-dfca5abac2bb',
  amber: 'marking-definition--55d920b0-5e8b-4f79-9ee9-91f868d9b421',
  'amber+strict': 'marking-definition--939a9414-2ddd-4d32-a0cd-375ea402b003',
  red: 'marking-definition--e828b379-4e03-4974-9ac4-e53a884c97c1',
};

export function tlpMarking(tlp: Tlp): StixObject {
  return {
    type: 'marking-definition',
    spec_version: '2.1',
    id: TLP2_MARKING_IDS[tlp],
    created: '2022-10-01T00:00:00.000Z',
    name: `TLP:${tlp.toUpperCase()}`,
    extensions: { [TLP2_EXTENSION_ID]: { extension_type: 'property-extension', tlp_2_0: tlp } },
  };
}

// ---- Entities as observables ----

interface Observable {
  object: StixObject;
  /** A STIX pattern matching it, when the type can be matched by a pattern. */
  pattern?: string;
}

const quote = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

function observableOf(
  entity: Entity,
  common: { markings: string[]; createdBy: string; at: string },
): Observable {
  switch (entity.type) {
    case 'ip': {
      const type = entity.value.includes(':') ? 'ipv6-addr' : 'ipv4-addr';
      return {
        object: { type, spec_version: '2.1', id: scoId(type, { value: entity.value }), value: entity.value },
        pattern: `[${type}:value = ${quote(entity.value)}]`,
      };
    }
    case 'domain':
      return {
        object: {
          type: 'domain-name',
          spec_version: '2.1',
          id: scoId('domain-name', { value: entity.value }),
          value: entity.value,
        },
        pattern: `[domain-name:value = ${quote(entity.value)}]`,
      };
    case 'user':
      return {
        object: {
          type: 'user-account',
          spec_version: '2.1',
          id: scoId('user-account', { user_id: entity.value }),
          user_id: entity.value,
        },
        pattern: `[user-account:user_id = ${quote(entity.value)}]`,
      };
    default:
      // STIX 2.1 has no host observable: a named machine is infrastructure (an SDO, so no pattern).
      return {
        object: {
          type: 'infrastructure',
          spec_version: '2.1',
          id: `infrastructure--${uuidV5(SIS_STIX_NAMESPACE, `host:${entity.value}`)}`,
          created: common.at,
          modified: common.at,
          created_by_ref: common.createdBy,
          object_marking_refs: common.markings,
          name: entity.value,
          infrastructure_types: ['unknown'],
        },
      };
  }
}

// ---- The bundle ----

export interface StixExportInput {
  session_id: string;
  entity: Entity;
  report: Report;
  tlp: Tlp;
  /** ISO 8601: when the session started and completed. */
  created_at: string;
  completed_at: string;
  /** Where a reader finds the session (the console URL). */
  session_url?: string;
  producer?: string;
}

const stixTime = (iso: string) => new Date(iso).toISOString();

export function reportToStix(input: StixExportInput): StixBundle {
  const producerName = input.producer ?? 'Security Investigation Service';
  const identity: StixObject = {
    type: 'identity',
    spec_version: '2.1',
    id: `identity--${uuidV5(SIS_STIX_NAMESPACE, `identity:${producerName}`)}`,
    created: DEFINED_AT,
    modified: DEFINED_AT,
    name: producerName,
    identity_class: 'system',
  };
  const marking = tlpMarking(input.tlp);
  const markings = [marking.id];
  const created = stixTime(input.created_at);
  const completed = stixTime(input.completed_at);
  const common = { markings, createdBy: identity.id, at: completed };
  const sdo = (type: string, key: string, body: Record<string, unknown>): StixObject => ({
    type,
    spec_version: '2.1',
    id: `${type}--${uuidV5(SIS_STIX_NAMESPACE, `${input.session_id}:${type}:${key}`)}`,
    created: completed,
    modified: completed,
    created_by_ref: identity.id,
    object_marking_refs: markings,
    ...body,
  });

  const { report } = input;
  const subject = observableOf(input.entity, common);
  const related = report.entities
    .filter((e) => e.role === 'related')
    .map((e) => ({ entity: e, observable: observableOf(e, common) }));

  const techniques = new Map<string, string>();
  for (const finding of report.findings) {
    for (const t of finding.attack ?? []) if (!techniques.has(t.id)) techniques.set(t.id, t.name);
  }
  const attackPatterns: StixObject[] = [...techniques].map(([id, name]) => ({
    type: 'attack-pattern',
    spec_version: '2.1',
    id: `attack-pattern--${uuidV5(SIS_STIX_NAMESPACE, `mitre-attack:${id}`)}`,
    created: DEFINED_AT,
    modified: DEFINED_AT,
    created_by_ref: identity.id,
    name,
    external_references: [{ source_name: 'mitre-attack', external_id: id, url: attackTechniqueUrl(id) }],
  }));

  // STIX `confidence` is how sure the producer is (0-100), not how risky the entity is: the report's
  // confidence on the STIX 2.1 Low/Med/High scale (Appendix A: 15, 50, 85).
  const confidence = report.confidence ? STIX_CONFIDENCE[report.confidence] : undefined;
  const indicator =
    report.verdict === 'malicious' && subject.pattern
      ? sdo('indicator', 'subject', {
          name: `${input.entity.type} ${input.entity.value}`,
          description: report.summary.split('\n')[0],
          indicator_types: ['malicious-activity'],
          pattern: subject.pattern,
          pattern_type: 'stix',
          pattern_version: '2.1',
          valid_from: completed,
          ...(confidence !== undefined ? { confidence } : {}),
        })
      : undefined;

  const relationships: StixObject[] = [
    ...related.map(({ entity, observable }) =>
      sdo('relationship', `related:${entity.type}:${entity.value}`, {
        relationship_type: 'related-to',
        source_ref: subject.object.id,
        target_ref: observable.object.id,
        description: entity.relationship ?? 'related',
      }),
    ),
    ...(indicator
      ? [
          sdo('relationship', 'indicator-based-on', {
            relationship_type: 'related-to',
            source_ref: indicator.id,
            target_ref: subject.object.id,
            description: 'The indicator matches the investigated observable',
          }),
          ...attackPatterns.map((pattern) =>
            sdo('relationship', `indicates:${pattern.id}`, {
              relationship_type: 'indicates',
              source_ref: indicator.id,
              target_ref: pattern.id,
            }),
          ),
        ]
      : []),
  ];

  const content: StixObject[] = [
    subject.object,
    ...related.map((r) => r.observable.object),
    ...attackPatterns,
    ...(indicator ? [indicator] : []),
    ...relationships,
  ];
  const reportObject = sdo('report', 'report', {
    created,
    name: `Investigation of ${input.entity.type} ${input.entity.value}: ${report.verdict} (risk ${report.risk_score}/100)`,
    description: report.summary,
    report_types: ['threat-report'],
    published: completed,
    labels: [
      `verdict:${report.verdict}`,
      `risk:${report.risk_score}`,
      ...(report.confidence ? [`confidence:${report.confidence}`] : []),
    ],
    ...(confidence !== undefined ? { confidence } : {}),
    object_refs: [...new Set(content.map((o) => o.id))],
    external_references: [
      {
        source_name: 'security-investigation-service',
        external_id: input.session_id,
        ...(input.session_url ? { url: input.session_url } : {}),
      },
    ],
  });
  const note = coverageNote(report, reportObject.id, sdo);
  // Deduplicated by ID: a related entity may be the same observable as another (never the subject).
  const seen = new Set<string>();
  const objects = [marking, identity, reportObject, ...(note ? [note] : []), ...content].filter(
    (o) => !seen.has(o.id) && seen.add(o.id),
  );
  return {
    type: 'bundle',
    id: `bundle--${uuidV5(SIS_STIX_NAMESPACE, `${input.session_id}:bundle:${completed}`)}`,
    objects,
  };
}

/**
 * A STIX `note` on the report listing what the run consulted and what it did not (report.coverage.sources),
 * so a consumer of the bundle alone sees the blind spots; absent for reports stored before the list.
 */
function coverageNote(
  report: Report,
  reportId: string,
  sdo: (type: string, key: string, body: Record<string, unknown>) => StixObject,
): StixObject | undefined {
  const sources = report.coverage.sources;
  if (!sources) return undefined;
  const lines = sources.map(
    (s) =>
      `${s.name} (${s.kind}): ${s.status}${s.reading ? `, reading ${s.reading}` : ''}${s.reason ? ` (${s.reason})` : ''}`,
  );
  const outside = outsideSourcesLine(sources);
  return sdo('note', 'coverage', {
    abstract: 'Coverage: the sources this investigation consulted and those it did not',
    content: [...(outside ? [outside] : []), ...lines].join('\n'),
    object_refs: [reportId],
  });
}
