import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';

/**
 * The knowledge loop end to end over HTTP: investigations of related entities write graph edges and
 * risk, and a later investigation reports those links as a finding.
 */
let service: TestService;
let key: string;

beforeAll(async () => {
  service = await startTestService();
  ({ apiKey: key } = await service.createKey({
    scopes: ['investigations:read', 'investigations:write', 'graph:read'],
  }));
});

afterAll(async () => {
  await service?.stop();
});

async function investigate(value: string) {
  const res = await service.call('POST', '/api/v1/investigations/start', {
    key,
    body: { entity: { type: 'domain', value } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.status).toBe('completed');
  return res.body.report as {
    verdict: string;
    risk_score: number;
    findings: { source_tool: string; evidence: string[]; title: string; description: string }[];
  };
}

describe('graph edges from investigations feed later investigations', () => {
  it('names earlier risky subdomains on their registrable domain without taking on their risk (issue 34)', async () => {
    const before = await investigate('paypa1.com');
    const graphFindingBefore = before.findings.find(
      (f) =>
        f.source_tool === 'graph_neighbourhood' && f.evidence.some((e) => e.includes('secure.paypa1.com')),
    );
    expect(graphFindingBefore).toBeUndefined();

    for (const subdomain of ['secure.paypa1.com', 'login.paypa1.com']) {
      const report = await investigate(subdomain);
      expect(['suspicious', 'malicious']).toContain(report.verdict);
    }

    const graph = await service.call('GET', '/api/v1/graph/entity/paypa1.com?type=domain', { key });
    expect(graph.status).toBe(200);
    const neighbours = graph.body.neighbors.map((n: { value: string }) => n.value);
    expect(neighbours).toEqual(expect.arrayContaining(['secure.paypa1.com', 'login.paypa1.com']));

    const later = await investigate('paypa1.com');
    // Issue 34 item 1: risk flows only along links that imply shared control. subdomain_of passes a
    // parent's risk into its subdomains, never a subdomain's into its parent (which may be a hosting
    // platform; docs/investigations.md, carriesRisk): the graph finding names the subdomains as links
    // passing no risk and scores 0, and the parent's score does not rise.
    const graphFinding = later.findings.find((f) => f.source_tool === 'graph_neighbourhood');
    expect(graphFinding, JSON.stringify(later.findings)).toBeDefined();
    expect(graphFinding).toMatchObject({ finding_id: 'graph_neighbourhood:no_high_risk_links', score: 0 });
    expect(graphFinding?.description).toContain('passes no risk');
    expect(graphFinding?.description).toContain('domain secure.paypa1.com (via subdomain_of)');
    expect(graphFinding?.description).toContain('domain login.paypa1.com (via subdomain_of)');
    expect(later.risk_score).toBe(before.risk_score);
  });
});
