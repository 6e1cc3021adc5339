import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A local HTTP server speaking the feeds' documented formats from test/fixtures/feeds (nothing in a
 * test reaches the internet), with a behaviour per path: the file (with an ETag honoured by
 * If-None-Match), garbage, 404, an endless body, or a connection that never answers.
 */
export type FeedBehaviour = 'file' | 'garbage' | 'not_found' | 'endless' | 'hang';

export interface FeedServer {
  url(path: string): string;
  set(path: string, behaviour: FeedBehaviour): void;
  /** Requests per path, and the conditional ones. */
  requests: Map<string, number>;
  conditional: Map<string, number>;
  total(): number;
  stop(): Promise<void>;
}

export const FIXTURE_DIR = join(__dirname, '../fixtures/feeds');

export async function startFeedServer(files: Record<string, string>): Promise<FeedServer> {
  const behaviour = new Map<string, FeedBehaviour>();
  const requests = new Map<string, number>();
  const conditional = new Map<string, number>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const file = files[path];
    const mode = behaviour.get(path) ?? 'file';
    if (!file || mode === 'not_found') return void res.writeHead(404).end('not found');
    if (mode === 'garbage')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
    if (mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (mode === 'endless') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, '1.2.3.4\n');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => res.destroy());
      return pump();
    }
    const body = readFileSync(join(FIXTURE_DIR, file));
    const etag = `"${file}-${body.length}"`;
    if (req.headers['if-none-match'] === etag) {
      conditional.set(path, (conditional.get(path) ?? 0) + 1);
      return void res.writeHead(304, { etag }).end();
    }
    res.writeHead(200, { etag, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    set: (path, mode) => behaviour.set(path, mode),
    requests,
    conditional,
    total: () => [...requests.values()].reduce((a, b) => a + b, 0),
    stop: () =>
      new Promise((done) => {
        for (const res of hanging) res.destroy();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
