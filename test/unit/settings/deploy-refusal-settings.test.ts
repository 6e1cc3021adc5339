import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_NAME, MAX_TENANT_LENGTH, tenantResourceName } from '../../../infra/naming';
import { parseTenantSettings } from '../../../infra/settings';

/**
 * Settings AWS would refuse at deploy time are refused at synth, naming the setting and the rule
 * (issue 33: a 31-character tenant, a tenant containing "aws", an http publicUrl). The pinned region
 * with a Bedrock inference profile is synthesised by test/infra/deploy/deploy-check.test.ts.
 */
describe('settings AWS would refuse fail at synth', () => {
  it('derives the longest tenant from the longest generated function name (Lambda: 64)', () => {
    const folders = readdirSync(new URL('../../../functions', import.meta.url), { withFileTypes: true });
    const longestFolder = folders
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .reduce((a, b) => (b.length > a.length ? b : a));
    expect(LONGEST_NAME.name).toBe(`sis-<tenant>-${longestFolder}`);
    const longest = 'a'.repeat(MAX_TENANT_LENGTH);
    expect(tenantResourceName(longest, longestFolder)).toHaveLength(64);
    expect(parseTenantSettings({ tenant: longest }).tenant).toBe(longest);
    expect(() => parseTenantSettings({ tenant: `${longest}b` })).toThrow(
      new RegExp(
        `context 'tenant' must be at most ${MAX_TENANT_LENGTH} characters: .*sis-<tenant>-${longestFolder}.*Lambda function name limit of 64`,
      ),
    );
  });

  it('refuses a tenant whose default Cognito domain prefix holds a reserved word, unless consoleDomainPrefix is set', () => {
    for (const [tenant, word] of [
      ['lawson', 'aws'],
      ['amazonia', 'amazon'],
      ['cognitolabs', 'cognito'],
    ])
      expect(() => parseTenantSettings({ tenant })).toThrow(
        new RegExp(`context 'tenant' .*sis-${tenant}-console.*"${word}".*consoleDomainPrefix`),
      );
    expect(parseTenantSettings({ tenant: 'lawson', consoleDomainPrefix: 'sis-lwsn-console' }).tenant).toBe(
      'lawson',
    );
    expect(() => parseTenantSettings({ tenant: 'acme', consoleDomainPrefix: 'acme-amazon' })).toThrow(
      /context 'consoleDomainPrefix' must not contain aws, amazon, cognito/,
    );
  });

  it('accepts an https publicUrl and http only for localhost (Cognito callbacks are built on it)', () => {
    for (const publicUrl of ['http://sis.example.com', 'http://10.0.0.1:8080', 'ftp://sis.example.com'])
      expect(() => parseTenantSettings({ tenant: 'acme', publicUrl })).toThrow(
        /context 'publicUrl' must be an https URL \(http only for localhost\): Cognito refuses/,
      );
    for (const publicUrl of ['https://sis.example.com/api', 'http://localhost:8080'])
      expect(parseTenantSettings({ tenant: 'acme', publicUrl }).publicUrl).toBe(publicUrl);
  });
});
