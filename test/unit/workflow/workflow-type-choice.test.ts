import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shared/config';
import type { EntityType } from '../../../shared/domain/core/entity';
import {
  type RunShape,
  workflowTypeFor,
  workflowTypeOf,
} from '../../../shared/domain/investigation/workflow-type';
import { connectorEntityTypes } from '../../../shared/services/intel/configured-connectors';

const run = (overrides: Partial<RunShape> = {}): RunShape => ({
  analyst: 'rules',
  entityType: 'domain',
  connectorEntityTypes: new Set<EntityType>(),
  expressAvailable: true,
  ...overrides,
});

describe('the state machine a run starts on', () => {
  it('is Express for the rules analyst with no connector for the entity', () => {
    for (const entityType of ['ip', 'domain', 'user', 'host'] as const) {
      expect(workflowTypeFor(run({ entityType }))).toBe('express');
    }
  });

  it('is Standard for the bedrock analyst (its 300 s model budget alone fills Express’s 5 minutes)', () => {
    expect(workflowTypeFor(run({ analyst: 'bedrock' }))).toBe('standard');
  });

  it('is Standard when an enabled connector looks this entity type up, Express for other types', () => {
    const connectors = new Set<EntityType>(['ip']);
    expect(workflowTypeFor(run({ entityType: 'ip', connectorEntityTypes: connectors }))).toBe('standard');
    expect(workflowTypeFor(run({ entityType: 'user', connectorEntityTypes: connectors }))).toBe('express');
  });

  it('is Standard when the deployment has no Express state machine', () => {
    expect(workflowTypeFor(run({ expressAvailable: false }))).toBe('standard');
  });

  it('is read back from a session as recorded; sessions from before the choice ran on Standard', () => {
    expect(workflowTypeOf({ workflow: 'express' })).toBe('express');
    expect(workflowTypeOf({ workflow: 'standard' })).toBe('standard');
    expect(workflowTypeOf({})).toBe('standard');
  });
});

describe('the entity types the configured connectors look up', () => {
  it('are none by default, and follow each enabled connector’s declaration', () => {
    expect([...connectorEntityTypes(parseConfig({}))]).toEqual([]);
    const ipOnly = parseConfig({ SIS_INTEL_INTERNETDB_ENABLED: 'true' });
    expect([...connectorEntityTypes(ipOnly)]).toEqual(['ip']);
    const keyed = parseConfig({ SIS_INTEL_URLHAUS_API_KEY: 'test-key-urlhaus' });
    expect(connectorEntityTypes(keyed).has('domain')).toBe(true);
    expect(connectorEntityTypes(keyed).has('user')).toBe(false);
  });
});
