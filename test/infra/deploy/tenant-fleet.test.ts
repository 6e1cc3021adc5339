import { Stack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { buildTenantApp } from '../../../infra/build-app';
import type { FleetEntry } from '../../../infra/fleet';
import { PrerequisitesStack } from '../../../infra/prerequisites-stack';
import { TenantStack } from '../../../infra/stack';
import { cdkJsonContext } from '../../support/synth';

/**
 * A fleet of three tenants in two regions (and two accounts) from one app: one stack per tenant with
 * its account, region and settings, one prerequisites stack per account and region. The app is built,
 * not synthesised: what is asserted is fixed at construction (stack IDs, environments, settings,
 * dependencies), and each tenant's template is the single-tenant one the other infra tests check.
 */
const FLEET: FleetEntry[] = [
  { tenant: 'acme', account: '111111111111', region: 'eu-west-1' },
  {
    tenant: 'globex',
    account: '111111111111',
    region: 'eu-west-1',
    settings: { analyst: 'bedrock', bedrockModelId: 'eu.anthropic.claude-3-7-sonnet-20250219-v1:0' },
  },
  { tenant: 'initech', account: '222222222222', region: 'us-east-1', settings: { enableWaf: 'true' } },
];

describe('a fleet of tenants from one app', () => {
  const { app, tenants } = buildTenantApp({
    context: {
      ...cdkJsonContext(),
      'aws:cdk:bundling-stacks': [],
      // Settings in the app's context apply to every tenant; a tenant's own settings win.
      alarmEmail: 'soc@example.com',
      fleet: JSON.stringify(FLEET),
    },
  });
  const stacks = app.node.children.filter((child): child is Stack => Stack.isStack(child));

  it('builds one stack per tenant and one prerequisites stack per account and region', () => {
    expect(stacks.map((stack) => stack.node.id).sort()).toEqual([
      'SecurityInvestigation-Prerequisites-eu-west-1-111111111111',
      'SecurityInvestigation-Prerequisites-us-east-1-222222222222',
      'SecurityInvestigation-acme',
      'SecurityInvestigation-globex',
      'SecurityInvestigation-initech',
    ]);
    // `cdk deploy 'SecurityInvestigation-*'` selects them all; each prerequisites stack keeps the
    // CloudFormation name a single-tenant deploy gives it, so both paths deploy the same stack.
    for (const stack of stacks.filter((s) => s instanceof PrerequisitesStack))
      expect(stack.stackName).toBe(`SecurityInvestigation-Prerequisites-${stack.region}`);
  });

  it('puts each tenant in its account and region with the shared settings and its own', () => {
    const byTenant = new Map(tenants.map((stack) => [stack.settings.tenant, stack]));
    expect(tenants.every((stack) => stack instanceof TenantStack)).toBe(true);
    for (const entry of FLEET) {
      const stack = byTenant.get(entry.tenant) as TenantStack;
      expect([stack.account, stack.region, stack.stackName]).toEqual([
        entry.account,
        entry.region,
        `SecurityInvestigation-${entry.tenant}`,
      ]);
      expect(stack.settings.alarmEmail).toBe('soc@example.com');
      const [prerequisites] = stack.dependencies as [Stack];
      expect([prerequisites.account, prerequisites.region]).toEqual([entry.account, entry.region]);
    }
    expect(byTenant.get('globex')?.settings.analyst).toBe('bedrock');
    expect(byTenant.get('acme')?.settings.analyst).not.toBe('bedrock');
    expect(byTenant.get('initech')?.settings.enableWaf).toBe(true);
    expect(byTenant.get('acme')?.settings.enableWaf).toBe(false);
  });
});
