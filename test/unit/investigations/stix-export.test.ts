import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import type { Tlp } from '../../../shared/domain/core/tlp';
import { buildReport, runTools } from '../../../shared/domain/investigation';
import type { SourceSetup } from '../../../shared/domain/investigation/coverage-sources';
import {
  reportToStix,
  type StixBundle,
  type StixObject,
  scoId,
  TLP2_MARKING_IDS,
  uuidV5,
} from '../../../shared/domain/investigation/stix';
import { context, domainContext, incident } from './investigation-test-data';

/**
 * Validates a bundle against STIX 2.1's mandatory properties (OASIS STIX Version 2.1, sections 2-7):
 * identifiers, common properties of SDOs/SROs/SCOs/marking-definitions, each type's required
 * properties, timestamps, and that every reference resolves inside the bundle. Returns the problems.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const SDO_TYPES = new Set(['report', 'identity', 'indicator', 'attack-pattern', 'infrastructure', 'note']);
const SCO_TYPES = new Set(['ipv4-addr', 'ipv6-addr', 'domain-name', 'user-account']);
const REQUIRED: Record<string, string[]> = {
  report: ['name', 'published', 'object_refs'],
  note: ['content', 'object_refs'],
  identity: ['name'],
  indicator: ['pattern', 'pattern_type', 'valid_from'],
  'attack-pattern': ['name'],
  infrastructure: ['name'],
  relationship: ['relationship_type', 'source_ref', 'target_ref'],
  'ipv4-addr': ['value'],
  'ipv6-addr': ['value'],
  'domain-name': ['value'],
  'user-account': ['user_id'],
};

function stixProblems(bundle: StixBundle): string[] {
  const problems: string[] = [];
  const fail = (o: { id?: unknown }, message: string) => problems.push(`${String(o.id)}: ${message}`);
  if (bundle.type !== 'bundle') problems.push('bundle type');
  if (!new RegExp(`^bundle--${UUID}$`).test(bundle.id)) problems.push('bundle id');
  if ('spec_version' in bundle) problems.push('a 2.1 bundle has no spec_version');
  const byId = new Map(bundle.objects.map((o) => [o.id, o]));
  if (byId.size !== bundle.objects.length) problems.push('duplicate ids');
  const resolves = (ref: unknown) => typeof ref === 'string' && byId.has(ref);

  for (const o of bundle.objects) {
    if (!/^[a-z0-9][a-z0-9-]{1,248}[a-z0-9]$/.test(o.type)) fail(o, 'type');
    if (!new RegExp(`^${o.type}--${UUID}$`).test(o.id)) fail(o, 'id is not <type>--<uuid>');
    if (o.spec_version !== '2.1') fail(o, 'spec_version');
    const isSco = SCO_TYPES.has(o.type);
    if (!isSco) {
      if (typeof o.created !== 'string' || !TIMESTAMP.test(o.created)) fail(o, 'created');
      if (o.type !== 'marking-definition') {
        if (typeof o.modified !== 'string' || !TIMESTAMP.test(o.modified)) fail(o, 'modified');
        else if (Date.parse(o.modified) < Date.parse(String(o.created))) fail(o, 'modified before created');
      }
    } else if ('created' in o) fail(o, 'an SCO has no created');
    for (const property of REQUIRED[o.type] ?? []) {
      if (o[property] === undefined || o[property] === '') fail(o, `missing ${property}`);
    }
    if (o.created_by_ref !== undefined && byId.get(String(o.created_by_ref))?.type !== 'identity') {
      fail(o, 'created_by_ref does not resolve to an identity');
    }
    for (const ref of (o.object_marking_refs as unknown[] | undefined) ?? []) {
      if (byId.get(String(ref))?.type !== 'marking-definition')
        fail(o, `marking ${String(ref)} not in bundle`);
    }
    if (
      (SDO_TYPES.has(o.type) || o.type === 'relationship') &&
      o.type !== 'identity' &&
      o.type !== 'attack-pattern'
    ) {
      if (!Array.isArray(o.object_marking_refs) || o.object_marking_refs.length === 0) fail(o, 'unmarked');
    }
    switch (o.type) {
      case 'marking-definition': {
        const extensions = o.extensions as Record<string, { extension_type?: string }> | undefined;
        if (!(o.definition_type && o.definition) && !extensions) fail(o, 'no definition');
        for (const ext of Object.values(extensions ?? {})) {
          if (!ext.extension_type) fail(o, 'extension without extension_type');
        }
        break;
      }
      case 'report': {
        const refs = o.object_refs as unknown[];
        if (!Array.isArray(refs) || refs.length === 0) fail(o, 'object_refs empty');
        for (const ref of refs ?? []) if (!resolves(ref)) fail(o, `object_ref ${String(ref)} unresolved`);
        if (!TIMESTAMP.test(String(o.published))) fail(o, 'published');
        break;
      }
      case 'relationship':
        if (!resolves(o.source_ref) || !resolves(o.target_ref)) fail(o, 'relationship ends unresolved');
        break;
      case 'indicator':
        if (o.pattern_type !== 'stix') fail(o, 'pattern_type');
        if (!/^\[[a-z0-9-]+:[a-z_]+ = '(?:[^'\\]|\\.)*'\]$/.test(String(o.pattern)))
          fail(o, 'pattern syntax');
        if (!TIMESTAMP.test(String(o.valid_from))) fail(o, 'valid_from');
        break;
      case 'attack-pattern': {
        const refs = o.external_references as { source_name?: string; external_id?: string; url?: string }[];
        const mitre = refs?.find((r) => r.source_name === 'mitre-attack');
        if (!mitre?.external_id || !mitre.url?.startsWith('https://attack.mitre.org/techniques/')) {
          fail(o, 'no mitre-attack external reference');
        }
        break;
      }
      default:
        break;
    }
    if (isSco) {
      const contributing: Record<string, string> =
        o.type === 'user-account' ? { user_id: String(o.user_id) } : { value: String(o.value) };
      if (o.id !== scoId(o.type, contributing)) fail(o, 'SCO id is not the deterministic UUIDv5');
      if (o.id.split('--')[1]?.[14] !== '5') fail(o, 'SCO id is not a version 5 UUID');
    }
  }
  return problems;
}

async function bundleFor(entity: Entity, tlp: Tlp = 'amber', incidents = 0, sources?: SourceSetup) {
  const subject = normaliseEntity(entity);
  const history = Array.from({ length: incidents }, (_, i) => incident(`inc-${i}`, 'critical', 1, [subject]));
  const toolCalls = await runTools(
    subject,
    subject.type === 'domain' ? domainContext({ incidents: history }) : context({ incidents: history }),
  );
  const report = buildReport({ entity: subject, toolCalls, ...(sources ? { sources } : {}) });
  return {
    report,
    bundle: reportToStix({
      session_id: 's_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
      entity: subject,
      report,
      tlp,
      created_at: '2026-11-20T12:00:00.000Z',
      completed_at: '2026-11-20T12:00:04.000Z',
      session_url: 'https://sis.example.com/sessions/s_01JD6Z7QK3Q0V8Y5N2B4C6D8EF',
    }),
  };
}

const ofType = (bundle: StixBundle, type: string): StixObject[] =>
  bundle.objects.filter((o) => o.type === type);

describe('STIX 2.1 export', () => {
  it('computes SCO IDs as the specification does (UUIDv5 over canonical JSON)', () => {
    // The value the OASIS stix2 library gives this address.
    expect(scoId('ipv4-addr', { value: '198.51.100.3' })).toBe(
      'ipv4-addr--28bb3599-77cd-5a82-a950-b5bc3caf07c4',
    );
    expect(uuidV5('00abedb4-aa42-466c-9c01-fed23315a9b7', 'x')).toMatch(/^[0-9a-f-]{14}5/);
  });

  it('exports a malicious look-alike domain with every object valid, an indicator and attack-patterns', async () => {
    const { bundle, report } = await bundleFor({ type: 'domain', value: 'paypa1-login.com' }, 'amber', 2);
    expect(report.verdict).toBe('malicious');
    expect(stixProblems(bundle)).toEqual([]);
    const [indicator] = ofType(bundle, 'indicator');
    expect(indicator).toMatchObject({
      pattern: "[domain-name:value = 'paypa1-login.com']",
      indicator_types: ['malicious-activity'],
      // How sure the service is (the report's confidence on STIX's Low/Med/High scale), not the risk.
      confidence: { low: 15, medium: 50, high: 85 }[report.confidence],
    });
    const techniques = ofType(bundle, 'attack-pattern').map(
      (p) => (p.external_references as { external_id: string }[])[0]!.external_id,
    );
    expect(techniques).toEqual(expect.arrayContaining(['T1583.001', 'T1566']));
    expect(ofType(bundle, 'relationship').some((r) => r.relationship_type === 'indicates')).toBe(true);
    const [reportObject] = ofType(bundle, 'report');
    expect(reportObject?.object_refs).toEqual(
      expect.arrayContaining([scoId('domain-name', { value: 'paypa1-login.com' }), indicator!.id]),
    );
    expect(reportObject?.labels).toEqual([
      'verdict:malicious',
      `risk:${report.risk_score}`,
      `confidence:${report.confidence}`,
    ]);
  });

  it('marks everything with the session’s TLP 2.0 marking-definition', async () => {
    for (const tlp of ['clear', 'amber+strict', 'red'] as const) {
      const { bundle } = await bundleFor({ type: 'ip', value: '198.51.100.7' }, tlp);
      const markings = ofType(bundle, 'marking-definition');
      expect(markings).toHaveLength(1);
      expect(markings[0]).toMatchObject({ id: TLP2_MARKING_IDS[tlp], name: `TLP:${tlp.toUpperCase()}` });
      const [reportObject] = ofType(bundle, 'report');
      expect(reportObject?.object_marking_refs).toEqual([TLP2_MARKING_IDS[tlp]]);
      expect(stixProblems(bundle)).toEqual([]);
    }
  });

  it('gives no indicator for a verdict that is not malicious, and valid objects for each entity type', async () => {
    for (const entity of [
      { type: 'ip', value: '2001:db8::1' },
      { type: 'user', value: 'corp\\administrator' },
      { type: 'host', value: 'kali' },
    ] as const) {
      const { bundle, report } = await bundleFor(entity);
      expect(stixProblems(bundle), entity.value).toEqual([]);
      if (report.verdict !== 'malicious') expect(ofType(bundle, 'indicator')).toEqual([]);
    }
    const { bundle } = await bundleFor({ type: 'user', value: 'corp\\administrator' });
    expect(ofType(bundle, 'user-account')[0]).toMatchObject({ user_id: 'corp\\administrator' });
  });

  it('carries the coverage list as a note on the report, with the "no outside source" line', async () => {
    const setup: SourceSetup = { feeds: [], connectors: [], analyst: 'rules' };
    const { bundle } = await bundleFor({ type: 'ip', value: '198.51.100.23' }, 'amber', 0, setup);
    expect(stixProblems(bundle)).toEqual([]);
    const [note] = ofType(bundle, 'note');
    expect(note?.object_refs).toEqual([ofType(bundle, 'report')[0]?.id]);
    expect(String(note?.content)).toMatch(/^No outside source was consulted/);
    expect(String(note?.content)).toContain(
      'FEODO (feed): disabled (Not enabled. Set SIS_FEED_FEODO_ENABLED=true',
    );
    expect(ofType((await bundleFor({ type: 'ip', value: '198.51.100.23' })).bundle, 'note')).toEqual([]);
  });

  it('is deterministic: the same session gives the same bundle', async () => {
    const first = await bundleFor({ type: 'domain', value: 'paypa1-login.com' });
    const second = await bundleFor({ type: 'domain', value: 'paypa1-login.com' });
    expect(second.bundle).toEqual(first.bundle);
  });

  it('the validator itself catches a broken object', async () => {
    const { bundle } = await bundleFor({ type: 'domain', value: 'paypa1-login.com' }, 'amber', 2);
    const broken: StixBundle = {
      ...bundle,
      objects: bundle.objects.map((o) =>
        o.type === 'indicator' ? { ...o, valid_from: undefined, id: 'indicator--not-a-uuid' } : o,
      ),
    };
    expect(stixProblems(broken).join('\n')).toMatch(/id is not <type>--<uuid>[\s\S]*missing valid_from/);
  });
});
