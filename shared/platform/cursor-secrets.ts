import { randomBytes } from 'node:crypto';
import { type Config, config } from '../config';
import {
  assertCursorSecrets,
  type CursorCodec,
  CursorSecretError,
  type CursorSecrets,
  cursorCodec,
  parseCursorSecrets,
} from '../domain/cursor';

/**
 * The deployment's cursor secrets, loaded lazily, once per cold start, and only by the functions that
 * issue or verify cursors (search, incidents, graph, poll):
 * - on AWS from the Secrets Manager secret the stack generates (SIS_CURSOR_SECRET_ARN; the value is
 *   `{"current": "...", "previous": "..."}`), read with the one GetSecretValue the function is granted;
 * - locally from SIS_CURSOR_SECRET / SIS_CURSOR_SECRET_PREVIOUS, which the local runtime generates
 *   once and keeps in its data directory so a restart keeps pages valid.
 * Against DynamoDB Local with neither set (tests and benches calling services directly), a secret is
 * made up for this process. A deployment without any of these fails closed (500), never unsigned.
 */
let processSecret: string | undefined;

async function loadSecrets(cfg: Config): Promise<CursorSecrets> {
  if (cfg.SIS_CURSOR_SECRET_ARN) {
    // Imported here so functions that never page do not load the Secrets Manager client.
    const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
    const client = new SecretsManagerClient({ region: cfg.AWS_REGION });
    const secret = await client.send(new GetSecretValueCommand({ SecretId: cfg.SIS_CURSOR_SECRET_ARN }));
    if (!secret.SecretString) throw new CursorSecretError('The cursor secret has no string value.');
    return parseCursorSecrets(secret.SecretString);
  }
  if (cfg.SIS_CURSOR_SECRET) {
    return assertCursorSecrets({
      current: cfg.SIS_CURSOR_SECRET,
      ...(cfg.SIS_CURSOR_SECRET_PREVIOUS ? { previous: cfg.SIS_CURSOR_SECRET_PREVIOUS } : {}),
    });
  }
  if (cfg.SIS_DYNAMODB_ENDPOINT) {
    processSecret ??= randomBytes(32).toString('base64url');
    return { current: processSecret };
  }
  throw new CursorSecretError('No cursor secret is configured (SIS_CURSOR_SECRET_ARN or SIS_CURSOR_SECRET).');
}

let cached: { cfg: Config; codec: Promise<CursorCodec> } | undefined;

/** The codec of this deployment; a failed load is not cached, so the next request tries again. */
export function deploymentCursorCodec(): Promise<CursorCodec> {
  const cfg = config();
  if (cached?.cfg !== cfg) {
    const codec = loadSecrets(cfg).then(cursorCodec);
    cached = { cfg, codec };
    codec.catch(() => {
      if (cached?.codec === codec) cached = undefined;
    });
  }
  return cached.codec;
}
