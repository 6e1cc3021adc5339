import { describe, expect, it } from 'vitest';
import { parseTenantSettings } from '../../../infra/settings';
import { resourcesOfType, rolePolicies, synthTenantStack, type TemplateJson } from '../../support/synth';

/**
 * The intelligence connectors on AWS: the keys live in the tenant's Secrets Manager secret named in
 * the deployment settings; only the run-intel step (the connector tools) may read it (least
 * privilege), and the run-intel step and the connectors admin route learn which connectors are
 * enabled from the environment. The run-tool step (the built-in tools) learns none of it.
 */
const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sis/test/intel-AbCdEf';

function functionNamed(template: TemplateJson, name: string) {
  const found = [...resourcesOfType(template, 'AWS::Lambda::Function').entries()].find(
    ([, fn]) => fn.Properties.FunctionName === `sis-test-${name}`,
  );
  if (!found) throw new Error(`no function ${name}`);
  return found;
}

function environmentOf(template: TemplateJson, name: string): Record<string, unknown> {
  const [, fn] = functionNamed(template, name);
  return (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

/** What every function that plans or runs the connectors' tools, or shows them, is told: the enabled ones. */
const ENABLED_CONNECTORS = {
  SIS_INTEL_ABUSEIPDB_ENABLED: 'true',
  SIS_INTEL_CROWDSEC_ENABLED: 'true',
  SIS_INTEL_INTERNETDB_ENABLED: 'true',
  SIS_INTEL_SECRET_ARN: SECRET,
};

describe('intelligence connectors on AWS', () => {
  const { template } = synthTenantStack({
    intelSecretArn: SECRET,
    intelConnectors: 'abuseipdb,crowdsec,internetdb',
    internalSuffixes: 'corp.example.com',
  });
  const json = template.toJSON() as TemplateJson;

  it('grants GetSecretValue on the named secret to the run-intel step and the feed refreshers, nothing else', () => {
    // The connectors' keys (run-intel) and the abuse.ch feeds' Auth-Key (the scheduled and the
    // on-demand feed refresh, docs/feeds.md) are in the one tenant secret.
    const readers = rolePolicies(json).filter((policy) => JSON.stringify(policy.statements).includes(SECRET));
    for (const reader of readers)
      expect(reader.statements).toContainEqual(
        expect.objectContaining({ Action: 'secretsmanager:GetSecretValue', Resource: SECRET }),
      );
    const roleOf = (name: string) => {
      const [id] = functionNamed(json, name);
      return (json.Resources[id!]!.Properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
    };
    const readingRoles = readers.flatMap((reader) => reader.roles ?? []).map((role) => JSON.stringify(role));
    const expected = ['step-run-intel', 'scheduled-feeds-refresh', 'refresh-feeds'].map((name) =>
      JSON.stringify(roleOf(name)),
    );
    expect(new Set(readingRoles)).toEqual(new Set(expected));
  });

  it('tells the run-intel step, the planning step and the admin route which connectors are enabled, never a key', () => {
    for (const name of ['step-run-intel', 'list-connectors']) {
      const env = environmentOf(json, name);
      expect(env).toMatchObject({
        ...ENABLED_CONNECTORS,
        SIS_INTERNAL_SUFFIXES: 'corp.example.com',
        SIS_INTEL_TABLE: { Ref: expect.stringMatching(/^TablesIntelTable/) },
      });
      expect(Object.keys(env).filter((key) => key.endsWith('_API_KEY'))).toEqual([]);
    }
    // Planning a run lists the enabled connectors' tools: MarkActive is told which are enabled (the
    // secret's name, no grant: the test above), not the suffixes only the tools' gate reads.
    const planning = environmentOf(json, 'step-mark-active');
    expect(planning).toMatchObject(ENABLED_CONNECTORS);
    expect(planning.SIS_INTERNAL_SUFFIXES).toBeUndefined();
    // Every other function knows the tables' names (the common environment), not the connectors' settings.
    const runToolEnv = environmentOf(json, 'step-run-tool');
    expect(
      Object.keys(runToolEnv).filter((key) => /^SIS_(INTEL_(?!TABLE$)|INTERNAL_SUFFIXES$)/.test(key)),
    ).toEqual([]);
  });

  it('refuses keyed connectors without the secret, and unknown connector names', () => {
    expect(() => parseTenantSettings({ tenant: 'test', intelConnectors: 'abuseipdb' })).toThrow(
      /intelSecretArn/,
    );
    expect(() => parseTenantSettings({ tenant: 'test', intelConnectors: 'shodan' })).toThrow(
      /intelConnectors/,
    );
    expect(parseTenantSettings({ tenant: 'test', intelConnectors: 'internetdb' }).intelConnectors).toEqual([
      'internetdb',
    ]);
  });
});
