import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { runToolByName } from '../../../shared/domain/investigation';
import { context, incident, type TestData } from './investigation-test-data';

async function analyse(tool: 'account_analysis' | 'host_analysis', entity: Entity, data: TestData = {}) {
  const call = await runToolByName(tool, entity, context(data));
  expect(call.status).toBe('succeeded');
  return call.output!;
}

const user = (value: string) => normaliseEntity({ type: 'user', value });
const host = (value: string) => normaliseEntity({ type: 'host', value });

describe('account_analysis naming', () => {
  it.each([
    ['krbtgt', 'account_analysis:krbtgt_account', 40, 'kerberos_service'],
    ['CORP\\Administrator', 'account_analysis:builtin_admin', 25, 'builtin_admin'],
    ['root', 'account_analysis:builtin_admin', 25, 'builtin_admin'],
    ['adm-jsmith@corp.example', 'account_analysis:privileged_naming', 20, 'privileged'],
    ['da_jsmith', 'account_analysis:privileged_naming', 20, 'privileged'],
    ['jsmith-adm', 'account_analysis:privileged_naming', 20, 'privileged'],
    ['sqladmin', 'account_analysis:privileged_naming', 20, 'privileged'],
    ['svc_backup', 'account_analysis:service_account', 10, 'service'],
    ['CORP\\svcSQL', 'account_analysis:service_account', 10, 'service'],
    ['reporting-svc@corp.example', 'account_analysis:service_account', 10, 'service'],
    ['guest', 'account_analysis:generic_account', 15, 'generic'],
    ['test01', 'account_analysis:generic_account', 15, 'generic'],
    ['WS-0042$', 'account_analysis:machine_account', 0, 'machine'],
    ['alice.smith@corp.example', 'account_analysis:standard_account', 0, 'standard'],
    ['CORP\\adam', 'account_analysis:standard_account', 0, 'standard'],
  ])('%s → %s', async (value, findingId, score, kind) => {
    const out = await analyse('account_analysis', user(value));
    expect(out.findings[0]).toMatchObject({ finding_id: findingId, score });
    expect(out.facts.account_kind).toBe(kind);
  });

  it('marks built-in and privileged accounts as privileged, service accounts not', async () => {
    expect((await analyse('account_analysis', user('administrator'))).facts.privileged).toBe(true);
    expect((await analyse('account_analysis', user('svc_backup'))).facts.privileged).toBe(false);
    expect((await analyse('account_analysis', user('alice'))).facts.privileged).toBe(false);
  });

  it('reports the form, logon name and domain', async () => {
    const out = await analyse('account_analysis', user('CORP\\Alice'));
    expect(out.facts).toMatchObject({ form: 'down_level', name: 'alice', domain: 'corp', alias: 'alice' });
  });

  it('finds incidents that name the account only by its bare logon name', async () => {
    const subject = user('alice@corp.example');
    const bare: Entity = { type: 'user', value: 'alice' };
    const ws: Entity = { type: 'host', value: 'ws-0042' };
    const out = await analyse('account_analysis', subject, {
      incidents: [
        incident('inc_bare', 'high', 1, [bare, ws]),
        // Mentions both forms: incident_history already counts it, so it is not counted again here.
        incident('inc_both', 'critical', 1, [bare, subject]),
      ],
    });
    const aliasFinding = out.findings.find((f) => f.finding_id === 'account_analysis:alias_in_incidents');
    expect(aliasFinding).toMatchObject({ evidence: ['inc_bare'], category: 'incident_history' });
    expect(aliasFinding!.title).toMatch(/under the short name "alice"/);
    expect(out.facts).toMatchObject({ alias: 'alice', alias_incident_count: 1 });
    expect(out.related).toEqual([
      { entity: bare, relationship: 'alias_of', evidence: ['inc_bare'] },
      { entity: ws, relationship: 'co_occurs_in_incident', evidence: ['inc_bare'] },
    ]);
  });

  it('does not look for aliases of a bare name', async () => {
    const out = await analyse('account_analysis', user('alice'));
    expect(out.facts.alias).toBeNull();
    expect(out.related).toEqual([]);
  });
});

describe('host_analysis naming', () => {
  it.each([
    ['kali', 'host_analysis:offensive_distribution', 60, 'offensive'],
    ['parrot-01', 'host_analysis:offensive_distribution', 60, 'offensive'],
    ['DESKTOP-7GH2K9Q', 'host_analysis:default_windows_name', 30, 'unmanaged'],
    ['WIN-A1B2C3D4E5F', 'host_analysis:default_windows_name', 30, 'unmanaged'],
    ['dc01.corp.local', 'host_analysis:domain_controller', 20, 'domain_controller'],
    ['nyc-dc02', 'host_analysis:domain_controller', 20, 'domain_controller'],
    ['adfs01', 'host_analysis:high_value_server', 15, 'high_value_server'],
    ['corp-vcenter', 'host_analysis:high_value_server', 15, 'high_value_server'],
    ['jump-01', 'host_analysis:jump_host', 10, 'jump_host'],
    ['srv-sql-03', 'host_analysis:server', 0, 'server'],
    ['ws-0042', 'host_analysis:workstation', 0, 'workstation'],
    ['laptop123', 'host_analysis:workstation', 0, 'workstation'],
    ['dcache', 'host_analysis:unclassified_host', 0, 'standard'],
    ['printer-lobby', 'host_analysis:unclassified_host', 0, 'standard'],
  ])('%s → %s', async (value, findingId, score, role) => {
    const out = await analyse('host_analysis', host(value));
    expect(out.findings[0]).toMatchObject({ finding_id: findingId, score });
    expect(out.facts.role).toBe(role);
  });

  it('classifies a domain controller as a critical asset', async () => {
    const out = await analyse('host_analysis', host('dc01'));
    expect(out.findings[0]!.category).toBe('critical_asset');
  });

  it('finds incidents that name the host by its short name', async () => {
    const fqdn = host('dc01.corp.local');
    const short: Entity = { type: 'host', value: 'dc01' };
    const out = await analyse('host_analysis', fqdn, {
      incidents: [incident('inc_short', 'critical', 0, [short])],
    });
    expect(out.facts).toMatchObject({
      form: 'fqdn',
      short_name: 'dc01',
      alias: 'dc01',
      alias_incident_count: 1,
    });
    expect(out.findings.map((f) => f.finding_id)).toEqual([
      'host_analysis:domain_controller',
      'host_analysis:alias_in_incidents',
    ]);
    expect(out.findings[1]!.score).toBe(60);
    expect(out.related).toEqual([{ entity: short, relationship: 'alias_of', evidence: ['inc_short'] }]);
  });
});
