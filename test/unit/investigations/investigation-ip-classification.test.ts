import { describe, expect, it } from 'vitest';
import { normaliseEntity } from '../../../shared/domain/core/entity-normalisation';
import { classifyIp, runToolByName } from '../../../shared/domain/investigation';
import { context } from './investigation-test-data';

describe('ip_classification ranges', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier_grade_nat'],
    ['100.127.255.255', 'carrier_grade_nat'],
    ['100.128.0.1', 'public'],
    ['127.0.0.1', 'loopback'],
    ['169.254.10.20', 'link_local'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.200', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['0.0.0.0', 'unspecified'],
    ['2606:4700:4700::1111', 'public'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2002:c000:204::1', '6to4'],
    ['64:ff9b::808:808', 'nat64'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['fe80::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (address, range) => {
    const entity = normaliseEntity({ type: 'ip', value: address });
    expect(classifyIp(entity.value).range).toBe(range);
  });
});

describe('ip_classification tool', () => {
  async function classify(value: string) {
    const call = await runToolByName('ip_classification', { type: 'ip', value }, context());
    expect(call.status).toBe('succeeded');
    return call.output!;
  }

  it('treats a CGNAT address as internal context, not evidence', async () => {
    const output = await classify('100.64.12.34');
    expect(output.facts).toMatchObject({
      range: 'carrier_grade_nat',
      internal: true,
      globally_routable: false,
    });
    expect(output.findings).toEqual([
      expect.objectContaining({
        finding_id: 'ip_classification:internal_address',
        score: 0,
        severity: 'info',
      }),
    ]);
    expect(output.findings[0]!.title).toMatch(/Carrier-grade NAT/);
  });

  it('does not repeat the queried address as a reverse pointer (no PTR record is resolved)', async () => {
    const output = await classify('203.0.113.7');
    expect(output.facts).not.toHaveProperty('reverse_pointer');
    expect(JSON.stringify(output)).not.toContain('in-addr.arpa');
  });

  it('flags documentation addresses as low-severity anomalies', async () => {
    for (const value of ['192.0.2.1', '198.51.100.1', '203.0.113.1', '2001:db8::42']) {
      const output = await classify(value);
      expect(output.facts.range).toBe('documentation');
      expect(output.findings[0]).toMatchObject({
        finding_id: 'ip_classification:documentation_address',
        severity: 'low',
        score: 15,
      });
    }
  });

  it('flags bogons as medium and tunnels as low', async () => {
    expect((await classify('240.1.2.3')).findings[0]).toMatchObject({ severity: 'medium', score: 30 });
    expect((await classify('2002:c000:204::1')).findings[0]).toMatchObject({
      finding_id: 'ip_classification:tunnel_address',
      category: 'network_exposure',
    });
  });

  it('reports public addresses without inventing reputation', async () => {
    const output = await classify('8.8.8.8');
    expect(output.facts).toMatchObject({
      version: 4,
      range: 'public',
      internal: false,
      globally_routable: true,
    });
    expect(output.findings[0]).toMatchObject({ finding_id: 'ip_classification:public_address', score: 0 });
  });
});
