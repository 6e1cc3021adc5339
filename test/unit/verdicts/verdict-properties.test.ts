import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Entity, entityKey } from '../../../shared/domain/core/entity';
import {
  buildReport,
  countEvidence,
  type IncidentSummary,
  type InvestigationData,
  type Neighbour,
  type PriorInvestigation,
  type Report,
  type RiskBasisEntry,
  riskBasisOf,
  runTools,
  type ToolCall,
} from '../../../shared/domain/investigation';
import { daysAgo, NOW } from '../investigations/investigation-test-data';

/**
 * Properties of scoring over whole worlds (fast-check): a world is entities, incidents naming some of
 * them (co-occurrence edges follow, as the incident sync writes them) and what earlier
 * investigations stored (each investigated entity's score and risk basis on its graph node, its
 * verdict for later prior_investigations), exactly as step-persist stores them.
 */

const POOL: Entity[] = [
  { type: 'ip', value: '203.0.113.66' },
  { type: 'user', value: 'j.doe@contoso.example' },
  { type: 'host', value: 'ws-0142' },
  { type: 'ip', value: '198.51.100.23' },
  { type: 'domain', value: 'update-cdn.example.net' },
  { type: 'user', value: 'svc-backup@contoso.example' },
];

interface World {
  incidents: IncidentSummary[];
  nodes: Map<string, { risk_score: number; risk_basis: RiskBasisEntry[] }>;
  priors: Map<string, PriorInvestigation[]>;
  sessions: number;
}

function worldOf(incidents: IncidentSummary[]): World {
  return { incidents, nodes: new Map(), priors: new Map(), sessions: 0 };
}

function dataOf(world: World): InvestigationData {
  const mentions = (e: Entity) =>
    world.incidents.filter((i) => (i.entities ?? []).some((x) => entityKey(x) === entityKey(e)));
  return {
    async incidentsMentioning(entity, limit) {
      return mentions(entity).slice(0, limit);
    },
    async priorInvestigations(entity, limit) {
      return (world.priors.get(entityKey(entity)) ?? []).slice(0, limit);
    },
    async neighbourhood(entity, limit) {
      const byKey = new Map<string, Neighbour>();
      for (const incident of mentions(entity)) {
        for (const other of incident.entities ?? []) {
          const key = entityKey(other);
          if (key === entityKey(entity)) continue;
          const node = world.nodes.get(key);
          const n = byKey.get(key) ?? {
            entity: other,
            relationship: 'co_occurs_in_incident',
            evidence: [],
            ...(node ? { risk_score: node.risk_score, risk_basis: node.risk_basis } : {}),
          };
          n.evidence = [...(n.evidence ?? []), incident.incident_id];
          byKey.set(key, n);
        }
      }
      return [...byKey.values()].slice(0, limit);
    },
    async tenantKnowledge() {
      return { allowlist: [], feedback: [] };
    },
  };
}

async function investigate(world: World, entity: Entity): Promise<{ report: Report; calls: ToolCall[] }> {
  const sessionId = `s_${++world.sessions}`;
  const calls = await runTools(entity, { data: dataOf(world), now: () => NOW, sessionId });
  return { report: buildReport({ entity, toolCalls: calls }), calls };
}

/** What step-persist stores of a completed investigation. */
function persist(world: World, entity: Entity, report: Report): void {
  world.nodes.set(entityKey(entity), {
    risk_score: report.risk_score,
    risk_basis: report.verdict === 'benign' ? [] : riskBasisOf(countEvidence(report.findings).counted),
  });
  world.priors.set(entityKey(entity), [
    {
      session_id: `s_${world.sessions}`,
      verdict: report.verdict,
      risk_score: report.risk_score,
      completed_at: NOW.toISOString(),
    },
    ...(world.priors.get(entityKey(entity)) ?? []),
  ]);
}

async function investigateAndPersist(world: World, entity: Entity): Promise<Report> {
  const { report } = await investigate(world, entity);
  persist(world, entity, report);
  return report;
}

const severity = fc.constantFrom('informational', 'low', 'medium', 'high', 'critical') as fc.Arbitrary<
  IncidentSummary['severity']
>;

/** Incidents over the entities of `pool` (by index), each naming one to three of them. */
const incidentsOver = (pool: readonly Entity[], prefix: string) =>
  fc
    .array(
      fc.record({
        severity,
        age: fc.integer({ min: 0, max: 120 }),
        members: fc.uniqueArray(fc.integer({ min: 0, max: pool.length - 1 }), { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 6 },
    )
    .map((list) =>
      list.map(
        (i, n): IncidentSummary => ({
          incident_id: `inc_${prefix}${n}`,
          title: `Incident ${prefix}${n}`,
          severity: i.severity,
          status: 'active',
          created_at: daysAgo(i.age),
          entities: i.members.map((m) => pool[m] as Entity),
        }),
      ),
    );

const order = fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { maxLength: 8 });
const scoresOf = (report: Report) => ({
  risk: report.risk_score,
  verdict: report.verdict,
  confidence: report.confidence,
  // The context findings may say more the second time ("Previously judged ..."); the evidence may not.
  evidence: report.findings.filter((f) => f.score > 0).map((f) => [f.finding_id, f.score]),
});

describe('scores are stable: evidence counts once however often it is looked at', () => {
  it('a rerun with no new data gives the same score, verdict and findings', async () => {
    await fc.assert(
      fc.asyncProperty(
        incidentsOver(POOL, 'a'),
        order,
        fc.integer({ min: 0, max: POOL.length - 1 }),
        async (incidents, before, x) => {
          const world = worldOf(incidents);
          for (const i of before) await investigateAndPersist(world, POOL[i] as Entity);
          const subject = POOL[x] as Entity;
          const first = await investigateAndPersist(world, subject);
          const second = await investigateAndPersist(world, subject);
          expect(scoresOf(second)).toEqual(scoresOf(first));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('after every neighbour was investigated, the entity reruns to the same score when their risk rests on it', async () => {
    // Everything in these worlds comes from incidents that all name the subject: each neighbour's
    // risk rests on the subject's own incidents, so nothing new may reach the subject through them.
    const subject = POOL[0] as Entity;
    const others = POOL.slice(1, 4);
    const sharedIncidents = fc
      .array(
        fc.record({
          severity,
          age: fc.integer({ min: 0, max: 60 }),
          members: fc.uniqueArray(fc.integer({ min: 0, max: others.length - 1 }), { maxLength: 2 }),
        }),
        { minLength: 1, maxLength: 4 },
      )
      .map((list) =>
        list.map(
          (i, n): IncidentSummary => ({
            incident_id: `inc_s${n}`,
            title: `Incident s${n}`,
            severity: i.severity,
            status: 'active',
            created_at: daysAgo(i.age),
            entities: [subject, ...i.members.map((m) => others[m] as Entity)],
          }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        sharedIncidents,
        fc.array(fc.integer({ min: 0, max: others.length - 1 }), { maxLength: 6 }),
        async (incidents, visits) => {
          const world = worldOf(incidents);
          const first = await investigateAndPersist(world, subject);
          for (const i of visits) await investigateAndPersist(world, others[i] as Entity);
          const again = await investigateAndPersist(world, subject);
          expect(again.risk_score).toBe(first.risk_score);
          expect(again.verdict).toBe(first.verdict);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an unrelated investigation never changes another entity’s score', async () => {
    const left = POOL.slice(0, 3);
    const right = POOL.slice(3);
    await fc.assert(
      fc.asyncProperty(
        incidentsOver(left, 'l'),
        incidentsOver(right, 'r'),
        fc.array(fc.integer({ min: 0, max: left.length - 1 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: right.length - 1 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: left.length - 1 }),
        async (leftIncidents, rightIncidents, leftVisits, rightVisits, x) => {
          const world = worldOf([...leftIncidents, ...rightIncidents]);
          for (const i of leftVisits) await investigateAndPersist(world, left[i] as Entity);
          const subject = left[x] as Entity;
          const before = (await investigate(world, subject)).report;
          for (const i of rightVisits) await investigateAndPersist(world, right[i] as Entity);
          const after = (await investigate(world, subject)).report;
          expect(scoresOf(after)).toEqual(scoresOf(before));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the order the tools answer in changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        incidentsOver(POOL, 'p'),
        order,
        fc.integer({ min: 0, max: POOL.length - 1 }),
        fc.infiniteStream(fc.nat()),
        async (incidents, before, x, randomness) => {
          const world = worldOf(incidents);
          for (const i of before) await investigateAndPersist(world, POOL[i] as Entity);
          const subject = POOL[x] as Entity;
          const { calls } = await investigate(world, subject);
          const keys = calls.map(() => randomness.next().value as number);
          const shuffled = calls
            .map((c, i) => ({ c, k: keys[i] as number }))
            .sort((a, b) => a.k - b.k)
            .map((p) => p.c);
          const a = buildReport({ entity: subject, toolCalls: calls });
          const b = buildReport({ entity: subject, toolCalls: shuffled });
          expect(b.risk_score).toBe(a.risk_score);
          expect(b.verdict).toBe(a.verdict);
          expect(b.confidence).toBe(a.confidence);
          expect(b.findings).toEqual(a.findings);
          expect(b.score_explanation).toEqual(a.score_explanation);
        },
      ),
      { numRuns: 60 },
    );
  });
});
