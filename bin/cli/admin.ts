import { userInfo } from 'node:os';
import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { rotateCursorSecrets } from '../../shared/services/auth/cursor-secrets';
import { cursorSecretRepositoryFromConfig } from '../../shared/store/cursor-secret-repository';
import { bootstrapAdminKey, parseScopeList } from './bootstrap';
import { withApiGateway } from './discover-api';
import { type CliTarget, describeTarget, openTarget, resolveTarget } from './target';

/**
 * The actions of `sis admin`: they need the project's runtime code (the AWS SDK, the key service), so
 * bin/sis.ts loads this module only when an admin command runs, and every other `sis` call starts
 * without it. Results go to stdout (with --json, exactly one JSON document); progress and errors go to
 * stderr. A secret is printed to stdout once and never logged.
 */
const status = (line: string) => process.stderr.write(`${line}\n`);

function actorName(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

export interface BootstrapFlags {
  json?: boolean;
  force?: boolean;
  name: string;
  description: string;
  expiresInDays: number;
  scopes: string;
  aws?: boolean;
  tenant?: string;
  startDb?: boolean;
}

/**
 * On AWS every protected method requires an API Gateway key, so the new key must join the tenant's
 * usage plan: the REST API, stage and default plan come from SIS_* when set, otherwise they are found
 * by the names the stack gives them.
 */
async function withUsagePlan(target: CliTarget, tenant: string | undefined): Promise<CliTarget> {
  if (target.kind !== 'aws') return target;
  const client = new APIGatewayClient({ region: target.config.AWS_REGION, maxAttempts: 4 });
  try {
    const { config, summary } = await withApiGateway(target.config, tenant, client);
    status(summary);
    return { ...target, config };
  } finally {
    client.destroy();
  }
}

export async function bootstrap(flags: BootstrapFlags): Promise<number> {
  const resolved = resolveTarget(process.env, { aws: flags.aws, tenant: flags.tenant });
  const scopes = parseScopeList(flags.scopes);
  const target = await withUsagePlan(resolved, flags.tenant ?? process.env.SIS_TENANT);
  const opened = await openTarget(target, status, { startDb: Boolean(flags.startDb) });
  try {
    const result = await bootstrapAdminKey(
      opened.service,
      {
        force: Boolean(flags.force),
        name: flags.name,
        description: flags.description,
        expiresInDays: flags.expiresInDays,
        scopes,
      },
      actorName(),
    );
    if (!result.created) {
      status(`Refused: ${result.reason}`);
      return 2;
    }
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ key_id: result.keyId, api_key: result.apiKey })}\n`);
    } else {
      process.stdout.write(
        [
          `Admin API key created in ${describeTarget(target)}.`,
          `  key_id:     ${result.keyId}`,
          `  key_prefix: ${result.keyPrefix}`,
          `  scopes:     ${result.scopes.join(', ') || '(none: key management only)'}`,
          `  expires_at: ${result.expiresAt}`,
          '',
          'API key (shown only now; store it in a secrets manager, send it as the X-API-Key header):',
          result.apiKey,
          '',
        ].join('\n'),
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}

export interface RotateCursorSecretFlags {
  json?: boolean;
  discardPrevious?: boolean;
  aws?: boolean;
  tenant?: string;
  startDb?: boolean;
}

/** The secret itself is never printed: nobody but the functions that page needs it. */
export async function rotateCursorSecret(flags: RotateCursorSecretFlags): Promise<number> {
  const target = resolveTarget(process.env, { aws: flags.aws, tenant: flags.tenant });
  const opened = await openTarget(target, status, { startDb: Boolean(flags.startDb) });
  try {
    const rotation = await rotateCursorSecrets(cursorSecretRepositoryFromConfig(target.config), {
      discardPrevious: Boolean(flags.discardPrevious),
    });
    if (flags.json) {
      process.stdout.write(`${JSON.stringify({ rotated: true, previous_kept: rotation.previousKept })}\n`);
    } else {
      process.stdout.write(
        [
          `Cursor secret rotated in ${describeTarget(target)}.`,
          rotation.previousKept
            ? '  Cursors issued before stay valid (the old secret is kept as previous until the next rotation).'
            : '  Cursors issued before are refused from now on (400 invalid_cursor): clients start their listings again.',
          '  Functions sign with the new secret from their next cold start.',
          '',
        ].join('\n'),
      );
    }
    return 0;
  } finally {
    await opened.close();
  }
}
