import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExpiryDays, parseScopeList } from '../../../bin/cli/bootstrap';
import { CliUsageError, describeTarget, resolveTarget } from '../../../bin/cli/target';
import { SCOPES } from '../../../shared/domain/keys/scopes';

describe('sis CLI target', () => {
  it('uses SIS_DYNAMODB_ENDPOINT first, with the configured table', () => {
    const target = resolveTarget(
      { SIS_DYNAMODB_ENDPOINT: 'http://127.0.0.1:9999', SIS_KEYS_TABLE: 'custom-keys', SIS_TARGET: 'aws' },
      { aws: true },
    );
    expect(target.kind).toBe('endpoint');
    expect(target.config.SIS_KEYS_TABLE).toBe('custom-keys');
    expect(target.config.SIS_DYNAMODB_ENDPOINT).toBe('http://127.0.0.1:9999');
  });

  it('defaults to the local runtime: port 8000, .data/dynamodb, sis-local-keys', () => {
    const target = resolveTarget({}, {});
    expect(target).toMatchObject({
      kind: 'local',
      endpoint: 'http://127.0.0.1:8000',
      port: 8000,
      dataDir: resolve('.data', 'dynamodb'),
    });
    expect(target.config.SIS_KEYS_TABLE).toBe('sis-local-keys');
    expect(target.config.SIS_DYNAMODB_ENDPOINT).toBe('http://127.0.0.1:8000');
    expect(describeTarget(target)).toContain('sis-local-keys');
  });

  it('follows SIS_DYNAMODB_PORT and SIS_DATA_DIR like npm start', () => {
    const target = resolveTarget({ SIS_DYNAMODB_PORT: '8123', SIS_DATA_DIR: '/srv/sis' }, {});
    expect(target).toMatchObject({
      endpoint: 'http://127.0.0.1:8123',
      port: 8123,
      dataDir: '/srv/sis/dynamodb',
    });
    expect(() => resolveTarget({ SIS_DYNAMODB_PORT: 'eighty' }, {})).toThrow(CliUsageError);
  });

  it('targets AWS with --aws or SIS_TARGET=aws, naming the table by tenant or SIS_KEYS_TABLE', () => {
    const byTenant = resolveTarget({ AWS_REGION: 'eu-west-1' }, { aws: true, tenant: 'acme' });
    expect(byTenant.kind).toBe('aws');
    expect(byTenant.config.SIS_KEYS_TABLE).toBe('sis-acme-keys');
    expect(byTenant.config.SIS_DYNAMODB_ENDPOINT).toBeUndefined();
    expect(byTenant.config.AWS_REGION).toBe('eu-west-1');
    const byEnv = resolveTarget(
      { SIS_TARGET: 'aws', AWS_DEFAULT_REGION: 'us-west-2', SIS_KEYS_TABLE: 'sis-x-keys' },
      {},
    );
    expect(byEnv.config.SIS_KEYS_TABLE).toBe('sis-x-keys');
    expect(byEnv.config.AWS_REGION).toBe('us-west-2');
  });

  it('refuses to guess a table or a region on AWS', () => {
    expect(() => resolveTarget({ AWS_REGION: 'eu-west-1' }, { aws: true })).toThrow(/--tenant/);
    expect(() => resolveTarget({}, { aws: true, tenant: 'acme' })).toThrow(/AWS_REGION/);
  });

  it('parses scope lists and expiry days', () => {
    expect(parseScopeList('all')).toEqual([...SCOPES]);
    expect(parseScopeList('none')).toEqual([]);
    expect(parseScopeList('graph:read, search:read')).toEqual(['graph:read', 'search:read']);
    expect(() => parseScopeList('admin')).toThrow(CliUsageError);
    expect(parseExpiryDays('30')).toBe(30);
    for (const bad of ['0', '366', '1.5', 'soon']) expect(() => parseExpiryDays(bad)).toThrow(CliUsageError);
  });
});
