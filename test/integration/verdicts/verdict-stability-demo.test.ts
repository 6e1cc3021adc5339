import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIncidentInputs } from '../../../shared/domain/data/demo-tenant';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * The story of issue 25 on the demo tenant: investigating 203.0.113.66 again with no new data moved
 * it 92 → 99 (its own earlier verdict, plus j.doe, judged malicious because of this same IP), and
 * 198.51.100.23 went 74 → 92 the same way. Now evidence counts once: reruns, and reruns after the
 * neighbours were investigated, keep the score and verdict. And (issue 34) a brand's own domain is
 * never condemned by the look-alikes investigated before it.
 */
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  key = (await service.createKey({ name: 'story', rate_limit: { rate_per_second: 100, burst: 100 } })).apiKey;
  const ingest = await service.call('POST', '/api/v1/incidents/ingest', {
    key,
    body: { incidents: demoIncidentInputs(new Date()) },
  });
  expect(ingest.status).toBe(202);
  await service.incidentQueue.idle();
  expect(service.incidentQueue.dlq()).toEqual([]);
});

afterAll(async () => {
  await service?.stop();
});

async function investigate(value: string) {
  const res = await service.call('POST', '/api/v1/investigations/start', { key, body: { entity: value } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.report as {
    risk_score: number;
    verdict: string;
    confidence: string;
    findings: { finding_id: string; score: number; discounted?: { score: number } }[];
    score_explanation: { discounted: { finding_id: string; reason: string }[] };
  };
}

const scored = (report: Awaited<ReturnType<typeof investigate>>) =>
  report.findings.filter((f) => f.score > 0).map((f) => [f.finding_id, f.score]);

describe('the demo tenant keeps its scores on reruns', () => {
  it('203.0.113.66 twice keeps its score and verdict; its earlier verdict is context', async () => {
    const first = await investigate('203.0.113.66');
    expect(first.verdict).toBe('malicious');
    const second = await investigate('203.0.113.66');
    expect([second.risk_score, second.verdict]).toEqual([first.risk_score, first.verdict]);
    expect(scored(second)).toEqual(scored(first));
    // Shown, with what it would have added and why it does not.
    const prior = second.findings.find((f) => f.finding_id === 'prior_investigations:prior_malicious');
    expect(prior?.score).toBe(0);
    expect(prior?.discounted?.score).toBeGreaterThan(0);
    expect(second.score_explanation.discounted.map((d) => d.finding_id)).toContain(
      'prior_investigations:prior_malicious',
    );
  });

  it('no drift: a neighbour counts once, for its own evidence, and reruns then change nothing', async () => {
    const ip = await investigate('203.0.113.66');
    // j.doe shares 3 incidents with the IP and has 7 of its own; its link to the IP rests on the IP.
    const jdoe = await investigate('j.doe@contoso.example');
    const jdoeLink = jdoe.findings.find((f) => f.finding_id.startsWith('graph_neighbourhood:'));
    expect(jdoeLink?.discounted?.score ?? 0).toBeGreaterThanOrEqual(jdoeLink?.score ?? 0);
    const after = await investigate('203.0.113.66');
    // The link to j.doe is the incidents the IP already counts, and her other incidents are her own
    // activity (issue 34: 92 → 93 on the rerun): the rerun keeps the score, finding for finding.
    expect([after.risk_score, after.verdict]).toEqual([ip.risk_score, ip.verdict]);
    expect(scored(after)).toEqual(scored(ip));
    // Round and round: neither moves again.
    const jdoeAgain = await investigate('j.doe@contoso.example');
    expect([jdoeAgain.risk_score, jdoeAgain.verdict]).toEqual([jdoe.risk_score, jdoe.verdict]);
    for (let i = 0; i < 2; i++) {
      const again = await investigate('203.0.113.66');
      expect([again.risk_score, again.verdict]).toEqual([after.risk_score, after.verdict]);
    }
  });

  it('198.51.100.23 does not drift when it and its neighbours are investigated over and over', async () => {
    const neighbours = ['ws-0142', 'update-cdn.example.net'];
    const first = await investigate('198.51.100.23');
    for (const value of neighbours) await investigate(value);
    const settled = await investigate('198.51.100.23');
    for (let round = 0; round < 2; round++) {
      for (const value of neighbours) await investigate(value);
      const again = await investigate('198.51.100.23');
      expect([again.risk_score, again.verdict]).toEqual([settled.risk_score, settled.verdict]);
    }
    expect(settled.verdict).toBe(first.verdict);
  });
});

describe('no guilt by association', () => {
  it('three look-alikes of a brand, then the brand: its own domain inherits none of their risk', async () => {
    const lookalikes = ['paypa1-login.com', 'paypal-secure-verify.xyz', 'secure-paypal-account-update.top'];
    for (const value of lookalikes) {
      const report = await investigate(value);
      expect(['suspicious', 'malicious'], `${value}: ${report.verdict}`).toContain(report.verdict);
    }
    const brand = await investigate('paypal.com');
    expect(['benign', 'unknown']).toContain(brand.verdict);
    const graph = brand.findings.find((f) => f.finding_id.startsWith('graph_neighbourhood:'));
    expect(graph?.finding_id).toBe('graph_neighbourhood:no_high_risk_links');
    expect(graph?.score).toBe(0);
    // The links are kept, with their meaning: the look-alikes point at the brand.
    const res = await service.call('GET', '/api/v1/graph/entity/paypal.com?type=domain', { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const neighbours = (res.body.neighbors as { value: string; relationship: string; direction: string }[])
      .filter((n) => lookalikes.includes(n.value))
      .map((n) => [n.value, n.relationship, n.direction]);
    expect(neighbours.sort()).toEqual(lookalikes.map((v) => [v, 'impersonates', 'in']).sort());
    // And the brand's rerun, with the look-alikes in its neighbourhood, changes nothing.
    const again = await investigate('paypal.com');
    expect([again.risk_score, again.verdict]).toEqual([brand.risk_score, brand.verdict]);
  });
});
