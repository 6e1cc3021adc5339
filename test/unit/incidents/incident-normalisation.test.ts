import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  INCIDENT_ID_PATTERN,
  incidentId,
  incidentLink,
  normaliseSeverity,
  normaliseStatus,
  shouldReplace,
  toIncidentView,
  toIsoUtc,
} from '../../../shared/domain/incidents/incident';
import { assertIncident, normaliseIncident } from '../../../shared/domain/incidents/incident-input';

const valid = {
  source: 'splunk',
  source_id: 'ABC-1@@notable@@ff',
  title: 'Brute force from 203.0.113.66',
  description: 'Many failures',
  severity: 'high',
  status: 'new',
  created_at: '2026-11-01T08:14:00Z',
  updated_at: '2026-11-01T09:00:00+01:00',
  url: 'https://splunk.example.com/incident_review',
  entities: [
    { type: 'ip', value: '203.0.113.66' },
    { type: 'user', value: 'J.Doe@Contoso.Example' },
  ],
};

function problemsOf(input: unknown) {
  const result = normaliseIncident(input);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

describe('incident ID', () => {
  it('is deterministic for source + source_id and has the documented shape', () => {
    const id = incidentId('splunk', 'ABC-1');
    expect(id).toMatch(INCIDENT_ID_PATTERN);
    expect(incidentId('splunk', 'ABC-1')).toBe(id);
    expect(incidentId(' Splunk ', 'ABC-1')).toBe(id);
  });

  it('differs when the source or the (case-sensitive) source_id differs', () => {
    const ids = new Set([
      incidentId('splunk', 'ABC-1'),
      incidentId('sentinel', 'ABC-1'),
      incidentId('splunk', 'abc-1'),
      incidentId('splunk', 'ABC-2'),
    ]);
    expect(ids.size).toBe(4);
  });

  it('links into the service, whatever the trailing slashes of the public URL', () => {
    expect(incidentLink('https://sis.example.com/', 'inc_abc')).toBe(
      'https://sis.example.com/incidents/inc_abc',
    );
    expect(incidentLink('https://sis.example.com', 'inc_abc')).toBe(
      'https://sis.example.com/incidents/inc_abc',
    );
  });
});

describe('severity and status synonyms', () => {
  it.each([
    ['info', 'informational'],
    ['Informational', 'informational'],
    ['LOW', 'low'],
    ['Moderate', 'medium'],
    ['med', 'medium'],
    ['High', 'high'],
    ['SEVERE', 'critical'],
    ['crit', 'critical'],
  ])('severity %s → %s', (raw, expected) => {
    expect(normaliseSeverity(raw)).toBe(expected);
  });

  it.each([
    ['Open', 'new'],
    ['Unassigned', 'new'],
    ['InProgress', 'active'],
    ['in progress', 'active'],
    ['in-progress', 'active'],
    ['acknowledged', 'active'],
    ['Pending', 'active'],
    ['Resolved', 'resolved'],
    ['Closed', 'closed'],
    ['dismissed', 'closed'],
  ])('status %s → %s', (raw, expected) => {
    expect(normaliseStatus(raw)).toBe(expected);
  });

  it('knows nothing else', () => {
    expect(normaliseSeverity('urgent-ish')).toBeUndefined();
    expect(normaliseSeverity(3)).toBeUndefined();
    expect(normaliseStatus('frozen')).toBeUndefined();
  });
});

describe('timestamps', () => {
  it.each([
    ['2026-11-01T08:14:00Z', '2026-11-01T08:14:00.000Z'],
    ['2026-11-01T09:14:00+01:00', '2026-11-01T08:14:00.000Z'],
    ['2026-11-01T09:14:00.1234567+0100', '2026-11-01T08:14:00.123Z'],
    ['1793250000', '2026-10-29T05:00:00.000Z'],
    ['1793250000.250', '2026-10-29T05:00:00.250Z'],
    [1793250000, '2026-10-29T05:00:00.000Z'],
    [1793250000123, '2026-10-29T05:00:00.123Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
    ['2026-04-30T23:00:00-01:00', '2026-05-01T00:00:00.000Z'],
  ])('%s → %s', (raw, expected) => {
    expect(toIsoUtc(raw)).toBe(expected);
  });

  it.each([
    '2026-11-01T08:14:00',
    '2026-11-01',
    'yesterday',
    '',
    '1899-01-01T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-04-31T10:00:00Z',
    '2025-02-29T10:00:00Z',
    '2026-06-31T23:00:00+02:00',
    '2026-01-01T24:00:00Z',
    '2026-01-01T12:60:00Z',
    '2026-01-01T12:00:61Z',
    '2026-01-01T12:00:00+01:75',
  ])('refuses %j (no offset, not a time, out of range or not on the calendar)', (raw) => {
    expect(toIsoUtc(raw)).toBeUndefined();
  });
});

describe('normaliseIncident', () => {
  it('normalises a valid incident', () => {
    const incident = assertIncident(valid);
    expect(incident).toEqual({
      incident_id: incidentId('splunk', 'ABC-1@@notable@@ff'),
      source: 'splunk',
      source_id: 'ABC-1@@notable@@ff',
      title: 'Brute force from 203.0.113.66',
      description: 'Many failures',
      severity: 'high',
      status: 'new',
      created_at: '2026-11-01T08:14:00.000Z',
      updated_at: '2026-11-01T08:14:00.000Z',
      source_url: 'https://splunk.example.com/incident_review',
      entities: [
        { type: 'ip', value: '203.0.113.66' },
        { type: 'user', value: 'j.doe@contoso.example' },
      ],
    });
  });

  it('maps synonyms and defaults updated_at to created_at', () => {
    const incident = assertIncident({
      ...valid,
      severity: 'info',
      status: 'InProgress',
      updated_at: undefined,
    });
    expect(incident.severity).toBe('informational');
    expect(incident.status).toBe('active');
    expect(incident.updated_at).toBe(incident.created_at);
  });

  it('never lets updated_at fall before created_at', () => {
    const incident = assertIncident({ ...valid, updated_at: '2026-10-01T00:00:00Z' });
    expect(incident.updated_at).toBe('2026-11-01T08:14:00.000Z');
  });

  it('strips control and bidi characters and collapses the title to one line', () => {
    const incident = assertIncident({
      ...valid,
      title: '  Brute\u202E force\n\tfrom\u200B  here ',
      description: 'line 1\r\nline 2\u0007\n\n\n\nline 3  ',
    });
    expect(incident.title).toBe('Brute force from here');
    expect(incident.description).toBe('line 1\nline 2\n\nline 3');
  });

  it('de-duplicates entities after normalisation and accepts bare strings', () => {
    const incident = assertIncident({
      ...valid,
      entities: [
        '203.0.113.66',
        { value: '203.0.113.66' },
        { type: 'user', value: 'CONTOSO\\JDoe' },
        'contoso\\jdoe',
      ],
    });
    expect(incident.entities).toEqual([
      { type: 'ip', value: '203.0.113.66' },
      { type: 'user', value: 'contoso\\jdoe' },
    ]);
  });

  it('reports every problem at once, with paths', () => {
    const problems = problemsOf({
      source: 'Bad Source!',
      source_id: '',
      title: '   ',
      severity: 'urgent-ish',
      status: 'frozen',
      created_at: '2026-11-01T08:14:00Z',
      url: 'javascript:alert(1)',
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      'severity',
      'source',
      'source_id',
      'status',
      'title',
      'url',
    ]);
  });

  it('reports a bad time and a bad entity by path', () => {
    const problems = problemsOf({
      ...valid,
      created_at: '2026-11-01 08:14',
      entities: [
        { type: 'ip', value: '203.0.113.300' },
        { type: 'planet', value: 'mars' },
      ],
    });
    expect(problems.map((p) => p.path)).toEqual(['created_at', 'entities.0.value', 'entities.1.type']);
  });

  it('enforces the documented limits', () => {
    expect(problemsOf({ ...valid, title: 'x'.repeat(513) })[0]?.path).toBe('title');
    expect(problemsOf({ ...valid, description: 'x'.repeat(8001) })[0]?.path).toBe('description');
    expect(problemsOf({ ...valid, source_id: 'x'.repeat(257) })[0]?.path).toBe('source_id');
    const many = Array.from({ length: 51 }, (_, i) => `198.51.100.${i + 1}`);
    expect(problemsOf({ ...valid, entities: many })[0]?.path).toBe('entities');
    expect(assertIncident({ ...valid, entities: many.slice(0, 50) }).entities).toHaveLength(50);
  });

  it('refuses a non-object', () => {
    expect(problemsOf('incident')[0]?.path).toBe('(incident)');
    expect(() => assertIncident(null)).toThrow(ValidationError);
  });

  it('assertIncident throws a ValidationError whose details are the problems', () => {
    try {
      assertIncident({ ...valid, severity: 'nope' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details).toEqual([
        { path: 'severity', message: 'must be one of informational, low, medium, high, critical' },
      ]);
    }
  });
});

describe('upsert rule and view', () => {
  it('replaces only with an equal or newer copy', () => {
    const current = assertIncident(valid);
    const older = assertIncident({ ...valid, updated_at: undefined, created_at: '2026-10-01T00:00:00Z' });
    const newer = assertIncident({ ...valid, updated_at: '2026-11-02T00:00:00Z' });
    expect(shouldReplace(undefined, current)).toBe(true);
    expect(shouldReplace(current, current)).toBe(true);
    expect(shouldReplace(current, newer)).toBe(true);
    expect(shouldReplace(current, older)).toBe(false);
  });

  it('never lets a push replace a pulled copy, and always lets a pull replace a pushed one', () => {
    const pulled = { ...assertIncident(valid), origin: { kind: 'pull' as const, connector: 'splunk' } };
    const pushedLater = {
      ...assertIncident({ ...valid, updated_at: '2026-11-03T00:00:00Z' }),
      origin: { kind: 'push' as const, key_id: 'key_a' },
    };
    const pushedFarAhead = { ...pushedLater, updated_at: '2099-01-01T00:00:00.000Z' };
    expect(shouldReplace(pulled, pushedLater)).toBe(false);
    expect(shouldReplace(pushedFarAhead, pulled)).toBe(true);
    expect(shouldReplace(pushedLater, pushedFarAhead)).toBe(true);
  });

  it('builds the list view with the service link and without the description', () => {
    const incident = assertIncident(valid);
    const view = toIncidentView(incident, 'https://sis.example.com');
    expect(view.link).toBe(`https://sis.example.com/incidents/${incident.incident_id}`);
    expect(view).not.toHaveProperty('description');
    expect(view.source_url).toBe('https://splunk.example.com/incident_review');
  });
});
