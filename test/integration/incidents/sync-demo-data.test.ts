import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type LocalService, startLocalService } from '../../../local/service';
import { config } from '../../../shared/config';
import { demoIncidents } from '../../../shared/domain/data/demo-tenant';
import { graphRepositoryFromConfig } from '../../../shared/store/graph-repository';
import { incidentsRepositoryFromConfig } from '../../../shared/store/incidents-repository';
import { dynamodbEndpoint } from '../../support/dynamodb';

/** The first start of the local runtime loads the demo tenant through the queue; later starts do not. */
let service: LocalService | undefined;

afterEach(async () => {
  await service?.stop();
  service = undefined;
});

async function start(tablePrefix: string, env: Record<string, string> = {}) {
  service = await startLocalService({
    port: 0,
    dynamodb: { endpoint: dynamodbEndpoint() },
    tablePrefix,
    demoData: true,
    env: { SIS_DEMO_DATA: '1', ...env },
  });
  return service;
}

describe('demo data on first start', () => {
  it('loads the demo incidents into an empty store, with graph edges, exactly once', async () => {
    const prefix = `sis-t${randomBytes(5).toString('hex')}`;
    const first = await start(prefix);
    expect(first.incidentQueue.dlq()).toEqual([]);
    const incidents = incidentsRepositoryFromConfig(config());
    const stored = await incidents.list({ limit: 100 });
    const expected = demoIncidents(new Date()).length;
    expect(stored.incidents).toHaveLength(expected);
    const neighbours = await graphRepositoryFromConfig(config()).neighbours(
      { type: 'user', value: 'j.doe@contoso.example' },
      { limit: 50 },
    );
    expect(neighbours.sides.length).toBeGreaterThan(3);
    await first.stop();
    service = undefined;

    // A restart on the same tables (the data directory of `npm start`) leaves the store alone.
    await start(prefix);
    expect((await incidentsRepositoryFromConfig(config()).list({ limit: 100 })).incidents).toHaveLength(
      expected,
    );
  });

  it('loads nothing with SIS_DEMO_DATA=0', async () => {
    await start(`sis-t${randomBytes(5).toString('hex')}`, { SIS_DEMO_DATA: '0' });
    expect((await incidentsRepositoryFromConfig(config()).list({ limit: 1 })).incidents).toEqual([]);
  });
});
