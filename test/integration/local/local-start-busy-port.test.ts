import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service';
import { freePort, portIsFree, spawnLocalMain } from '../../support/npm-start';

/**
 * A second `npm start` (local/main.ts as its own process) on a port that is taken: it says who is
 * there, the service or another program, and exits 1 before it starts DynamoDB Local or writes to its
 * data directory.
 */

let service: TestService;
let dataDir: string;

beforeAll(async () => {
  service = await startTestService();
  dataDir = mkdtempSync(join(tmpdir(), 'sis-second-'));
});

afterAll(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a second npm start on a busy port', () => {
  it('says the service is already there and exits 1 before starting anything', async () => {
    const dynamodbPort = await freePort();
    const second = spawnLocalMain({
      PORT: String(service.port),
      SIS_DYNAMODB_PORT: String(dynamodbPort),
      SIS_DATA_DIR: dataDir,
    });
    expect(await second.exited).toBe(1);
    const { stdout, stderr } = second.output();
    expect(stderr).toContain(
      `The Security Investigation Service is already running on http://127.0.0.1:${service.port}`,
    );
    expect(stderr).not.toMatch(/EADDRINUSE|DynamoDB Local cannot start|\n\s+at /);
    expect(stdout).toBe('');
    // Nothing was started: no DynamoDB Local on its port, nothing written to its data directory.
    expect(await portIsFree(dynamodbPort)).toBe(true);
    expect(existsSync(join(dataDir, 'dynamodb'))).toBe(false);
  });

  it('names another program on the port as not the service', async () => {
    const other: Server = createServer((_req, res) => res.writeHead(404).end('not here'));
    await new Promise<void>((ready) => other.listen(0, '127.0.0.1', () => ready()));
    const port = (other.address() as { port: number }).port;
    try {
      const second = spawnLocalMain({ PORT: String(port), SIS_DYNAMODB_PORT: String(await freePort()) });
      expect(await second.exited).toBe(1);
      expect(second.output().stderr).toContain(
        `Port ${port} on 127.0.0.1 is already used by another program`,
      );
    } finally {
      other.close();
    }
  });
});
