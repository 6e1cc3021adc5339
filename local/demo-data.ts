import { demoIncidents } from '../shared/domain/data/demo-tenant';
import type { IncidentQueue } from '../shared/platform/incident-queue';
import type { IncidentsRepository } from '../shared/store/incidents-repository';

/**
 * The demo tenant for a first `npm start`: when the incident store is empty, the demo incidents
 * (shared/domain/data/demo-tenant.ts, dated relative to now) are sent through the real sync path
 * (SQS adapter → local queue → consumer handler), so the incident list, the knowledge graph and the
 * enrichers all have data. A store that already has incidents is left alone, so restarts and
 * operators' own data are never mixed with demo data. SIS_DEMO_DATA=0 turns it off.
 */
export interface DemoDataDeps {
  incidents: IncidentsRepository;
  queue: IncidentQueue;
  /** Resolves when the queue has been drained by the consumer. */
  drained: () => Promise<void>;
  now?: Date;
  /** Upper bound on waiting for the consumer, so a broken consumer cannot hang the start. */
  timeoutMs?: number;
}

export type DemoDataOutcome = { loaded: number } | { skipped: 'store-not-empty' };

export async function loadDemoData(deps: DemoDataDeps): Promise<DemoDataOutcome> {
  if (await deps.incidents.hasAny()) return { skipped: 'store-not-empty' };
  const incidents = demoIncidents(deps.now ?? new Date());
  await deps.queue.enqueue(incidents);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () => fail(new Error('The demo incidents were queued but not consumed in time; see the consumer log.')),
      deps.timeoutMs ?? 60_000,
    );
  });
  try {
    await Promise.race([deps.drained(), timeout]);
  } finally {
    clearTimeout(timer);
  }
  return { loaded: incidents.length };
}
