import { describe, expect, it } from 'vitest';
import { parseFleet } from '../../../infra/fleet';

/** A fleet declaration (infra/fleet.ts) refuses at synth what would break a deploy, naming the tenant. */
describe('fleet declaration', () => {
  const entry = { tenant: 'acme', account: '111111111111', region: 'eu-west-1' };

  it('gives each tenant the shared settings under its own, and its region', () => {
    const [acme] = parseFleet([{ ...entry, settings: { dashboard: 'false' } }], {
      alarmEmail: 'soc@example.com',
    });
    expect(acme?.account).toBe('111111111111');
    expect(acme?.settings).toMatchObject({
      tenant: 'acme',
      region: 'eu-west-1',
      dashboard: false,
      alarmEmail: 'soc@example.com',
    });
  });

  it('refuses a bad account, an unknown setting, a tenant declared twice and a tenant setting AWS would refuse', () => {
    expect(() => parseFleet([{ ...entry, account: '1234' }])).toThrow(
      /fleet\[0\.account\] must be a 12-digit AWS account ID/,
    );
    expect(() => parseFleet([{ ...entry, settings: { enableWAF: 'true' } }])).toThrow(/unknown: enableWAF/);
    expect(() => parseFleet([{ ...entry, settings: { tenant: 'other' } }])).toThrow(/beside settings/);
    expect(() => parseFleet([entry, { ...entry, region: 'us-east-1' }])).toThrow(
      /fleet\[1\] tenant acme is declared twice/,
    );
    expect(() => parseFleet([{ ...entry, tenant: 'lawson' }])).toThrow(
      /fleet\[0\] \(lawson\): .*context 'tenant' .*"aws"/,
    );
    expect(() => parseFleet([])).toThrow(/at least one tenant/);
  });
});
