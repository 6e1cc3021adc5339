import { request } from 'node:http';
import { createServer } from 'node:net';

/**
 * Who holds the local gateway's port before `npm start` starts anything: nobody, this service (its
 * /health says so), or another program. Probed on 127.0.0.1, where the gateway binds.
 */
export type PortOccupant =
  | { kind: 'free' }
  | { kind: 'service'; baseUrl: string; tenant?: string }
  | { kind: 'other'; baseUrl: string };

function canListen(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => answer(true)));
  });
}

function readHealth(baseUrl: string): Promise<unknown> {
  return new Promise((answer) => {
    const req = request(`${baseUrl}/health`, { timeout: 2_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (text.length < 65_536) text += chunk;
      });
      res.on('end', () => {
        try {
          answer(res.statusCode === 200 ? JSON.parse(text) : undefined);
        } catch {
          answer(undefined);
        }
      });
      res.on('error', () => answer(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => answer(undefined));
    req.end();
  });
}

export async function portOccupant(port: number): Promise<PortOccupant> {
  if (port === 0 || (await canListen(port))) return { kind: 'free' };
  const baseUrl = `http://127.0.0.1:${port}`;
  const health = (await readHealth(baseUrl)) as { service?: unknown; tenant?: unknown } | undefined;
  if (health?.service === 'security-investigation-service') {
    return {
      kind: 'service',
      baseUrl,
      ...(typeof health.tenant === 'string' ? { tenant: health.tenant } : {}),
    };
  }
  return { kind: 'other', baseUrl };
}

/** The one-paragraph refusal `npm start` prints when the port is taken (exit 1, nothing started). */
export function describeOccupant(occupant: Exclude<PortOccupant, { kind: 'free' }>, port: number): string {
  if (occupant.kind === 'service') {
    return [
      `The Security Investigation Service is already running on ${occupant.baseUrl} (its /health answers).`,
      `Use that one (its console: ${occupant.baseUrl}/sessions), stop it first (Ctrl-C in its terminal),`,
      `or start a second one on other ports: PORT=<port> SIS_DYNAMODB_PORT=<port> SIS_DATA_DIR=<dir> npm start`,
    ].join('\n');
  }
  return [
    `Port ${port} on 127.0.0.1 is already used by another program (it is not this service).`,
    `Stop that program, or start the service on another port: PORT=<port> npm start`,
  ].join('\n');
}
