import { resolve } from 'node:path';
import { z } from 'zod';
import { describeOccupant, portOccupant } from './port-occupant';

/** The operator contract of `npm start` (DESIGN.md): PORT, SIS_DATA_DIR, SIS_DYNAMODB_PORT, SIS_PUBLIC_URL. */
const localEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SIS_DATA_DIR: z.string().min(1).default('.data'),
  SIS_DYNAMODB_PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  SIS_PUBLIC_URL: z.url().optional(),
  /** `on`: the keyless public feeds the stack enables by default on AWS are enabled here too (service.ts). */
  SIS_PUBLIC_SOURCES: z.enum(['on', 'off']).optional(),
});

/**
 * The exact bootstrap command for this service's data: `sis admin bootstrap` finds DynamoDB Local
 * through the same variables, so the ones that differ from their defaults are spelled out.
 */
function bootstrapCommand(env: z.infer<typeof localEnv>, dataDir: string): string {
  const vars = [
    env.SIS_DYNAMODB_PORT !== 8000 ? `SIS_DYNAMODB_PORT=${env.SIS_DYNAMODB_PORT}` : '',
    dataDir !== resolve('.data') ? `SIS_DATA_DIR=${shellWord(dataDir)}` : '',
  ].filter(Boolean);
  return [...vars, 'npx sis admin bootstrap --json'].join(' ');
}

const shellWord = (value: string) =>
  /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;

/** The banner's line on outside knowledge: which feeds and connectors are on, or how to turn them on. */
export function outsideSourcesLine(sources: { feeds: string[]; connectors: string[] }): string {
  if (sources.feeds.length === 0 && sources.connectors.length === 0) {
    return 'none: reports use tenant-internal tools only. SIS_PUBLIC_SOURCES=on enables the keyless public feeds (docs/feeds.md).';
  }
  const list = (items: string[]) => (items.length ? items.join(', ') : 'none');
  return `feeds ${list(sources.feeds)}; connectors ${list(sources.connectors)}`;
}

async function main(): Promise<void> {
  const parsed = localEnv.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid local configuration: ${problems}`);
  }
  const env = parsed.data;
  const dataDir = resolve(env.SIS_DATA_DIR);
  const started = Date.now();
  // Before anything starts (DynamoDB Local, tables, issuer): a second `npm start` on a taken port
  // says who is there and exits 1.
  const occupant = await portOccupant(env.PORT);
  if (occupant.kind !== 'free') {
    console.error(describeOccupant(occupant, env.PORT));
    process.exit(1);
  }
  const { startLocalService } = await import('./service');
  const service = await startLocalService({
    port: env.PORT,
    dynamodb: { dataDir: resolve(dataDir, 'dynamodb'), port: env.SIS_DYNAMODB_PORT },
    publicUrl: env.SIS_PUBLIC_URL,
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal} received, stopping the local service...`);
    service.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  console.log(`Security Investigation Service (local) listening on ${service.baseUrl}`);
  console.log(`  OpenAPI document:  ${service.baseUrl}/openapi.json`);
  console.log(`  Plugin manifest:   ${service.baseUrl}/.well-known/ai-plugin.json`);
  console.log(`  Data directory:    ${dataDir} (DynamoDB Local on 127.0.0.1:${env.SIS_DYNAMODB_PORT})`);
  console.log(`  First admin key:   ${bootstrapCommand(env, dataDir)}`);
  console.log(`  Web console:       ${service.console.url}`);
  for (const user of service.console.users) {
    // A generated password is printed once, here; one set in SIS_CONSOLE_*_PASSWORD never is.
    const password = user.generated ? `password ${user.password}` : 'password from the environment';
    console.log(`    sign in as ${user.username.padEnd(8)} ${password}`);
  }
  console.log(`  Outside sources:   ${outsideSourcesLine(service.outsideSources)}`);
  console.log(`  Ready in ${Date.now() - started} ms. Press Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
