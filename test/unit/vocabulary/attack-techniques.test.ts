import { describe, expect, it } from 'vitest';
import {
  ATTACK_TECHNIQUES,
  attackTechniques,
  attackTechniqueUrl,
  normaliseAttack,
} from '../../../shared/domain/core/attack';
import type { Entity } from '../../../shared/domain/core/entity';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { type Finding, runTool, runToolByName, type Tool } from '../../../shared/domain/investigation';
import { context, domainContext } from '../investigations/investigation-test-data';

async function findingsOf(tool: string, entity: Entity): Promise<Finding[]> {
  const call = await runToolByName(
    tool,
    normaliseEntity(entity),
    entity.type === 'domain' ? domainContext() : context(),
  );
  expect(call.status).toBe('succeeded');
  return call.output!.findings;
}

const techniqueIds = (findings: Finding[], findingId: string) =>
  findings.find((f) => f.finding_id === findingId)?.attack?.map((t) => t.id);

describe('the curated ATT&CK table', () => {
  it('holds well-formed IDs, and every sub-technique names its parent as the parent is listed', () => {
    for (const [id, name] of Object.entries(ATTACK_TECHNIQUES)) {
      expect(id).toMatch(/^T\d{4}(\.\d{3})?$/);
      const [parent, sub] = id.split('.');
      if (sub) {
        const parentName = (ATTACK_TECHNIQUES as Record<string, string>)[parent!];
        expect(parentName, `${id}'s parent ${parent} is listed`).toBeDefined();
        expect(name.startsWith(`${parentName}: `)).toBe(true);
      }
    }
  });

  it('cleans technique lists from sources: upper-cases, prefers curated names, drops junk and repeats', () => {
    expect(
      normaliseAttack([
        't1110',
        { id: 'T1110', name: 'dup' },
        { id: 'T9999.001', name: 'Something New' },
        { id: 'T1566.002', name: 'wrong name from a feed' },
        'not-a-technique',
        { id: 'T12' },
        null,
      ]),
    ).toEqual([
      { id: 'T1110', name: 'Brute Force' },
      { id: 'T9999.001', name: 'Something New' },
      { id: 'T1566.002', name: 'Phishing: Spearphishing Link' },
    ]);
    expect(attackTechniques(['T1583.001', 'T1583.001'])).toEqual([
      { id: 'T1583.001', name: 'Acquire Infrastructure: Domains' },
    ]);
  });

  it('links techniques and sub-techniques to their pages on attack.mitre.org', () => {
    expect(attackTechniqueUrl('T1566')).toBe('https://attack.mitre.org/techniques/T1566/');
    expect(attackTechniqueUrl('T1583.001')).toBe('https://attack.mitre.org/techniques/T1583/001/');
  });
});

describe('heuristic findings carry the techniques they point to', () => {
  it('tags look-alike domains as acquired domains used for phishing', async () => {
    const findings = await findingsOf('domain_analysis', { type: 'domain', value: 'paypa1.com' });
    expect(techniqueIds(findings, 'domain_analysis:confusable_spelling:paypal.com')).toEqual([
      'T1583.001',
      'T1566',
    ]);
  });

  it('tags generated-looking labels as DGA, and leaves ordinary names untagged', async () => {
    const dga = await findingsOf('domain_analysis', { type: 'domain', value: 'xj4k9q2mzp7rwt.net' });
    expect(techniqueIds(dga, 'domain_analysis:algorithmic_label')).toEqual(['T1568.002']);
    const plain = await findingsOf('domain_analysis', { type: 'domain', value: 'example-shop.com' });
    expect(plain.every((f) => f.attack === undefined)).toBe(true);
  });

  it.each([
    ['krbtgt', 'account_analysis:krbtgt_account', ['T1558.001', 'T1003.006']],
    ['administrator', 'account_analysis:builtin_admin', ['T1078.001', 'T1110', 'T1110.003']],
    ['svc_backup', 'account_analysis:service_account', ['T1558.003']],
  ])('tags the %s account', async (value, findingId, expected) => {
    const findings = await findingsOf('account_analysis', { type: 'user', value });
    expect(techniqueIds(findings, findingId)).toEqual(expected);
  });

  it('does not tag an ordinary personal account or an internal address', async () => {
    const account = await findingsOf('account_analysis', { type: 'user', value: 'alice.smith@corp.example' });
    expect(account.some((f) => f.attack)).toBe(false);
    const ip = await findingsOf('ip_classification', { type: 'ip', value: '10.1.2.3' });
    expect(ip.some((f) => f.attack)).toBe(false);
  });

  it('tags IPv6 transition tunnels as protocol tunnelling', async () => {
    const findings = await findingsOf('ip_classification', { type: 'ip', value: '2002:c000:204::1' });
    expect(techniqueIds(findings, 'ip_classification:tunnel_address')).toEqual(['T1572']);
  });

  it('keeps only well-formed techniques a tool returns', async () => {
    const tool: Tool = {
      name: 'ip_classification',
      description: 'test double of a source returning technique IDs',
      appliesTo: () => true,
      run: async () => ({
        facts: {},
        related: [],
        findings: [
          {
            finding_id: 'x',
            title: 't',
            description: 'd',
            impact: 'i',
            severity: 'high',
            score: 60,
            source_tool: 'ip_classification',
            category: 'context',
            evidence: [],
            attack: [
              { id: 't1046', name: 'scan' },
              { id: '<script>', name: 'x' },
            ] as never,
          },
        ],
      }),
    };
    const call = await runTool(tool, normaliseEntity({ type: 'ip', value: '198.51.100.1' }), context());
    expect(call.output?.findings[0]?.attack).toEqual([{ id: 'T1046', name: 'Network Service Discovery' }]);
  });
});
