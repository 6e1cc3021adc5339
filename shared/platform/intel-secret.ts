import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config';
import { SourceUnavailableError } from '../domain/core/errors';

let secretsClient: SecretsManagerClient | undefined;

/**
 * The intelligence connectors' keys from the tenant's secret: JSON {"ABUSEIPDB": "<key>", ...}, names
 * returned in lower case. No secret configured: no keys (the local runtime reads them from the
 * environment instead).
 */
export async function readIntelSecret(cfg: Config): Promise<Record<string, string>> {
  if (!cfg.SIS_INTEL_SECRET_ARN) return {};
  // Imported here so only a call that reads the secret loads the Secrets Manager client.
  const { GetSecretValueCommand, SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  secretsClient ??= new SecretsManagerClient({ region: cfg.AWS_REGION });
  const secret = await secretsClient.send(new GetSecretValueCommand({ SecretId: cfg.SIS_INTEL_SECRET_ARN }));
  try {
    const parsed = JSON.parse(secret.SecretString ?? '{}') as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed)
        .filter(([, v]) => typeof v === 'string')
        .map(([k, v]) => [k.toLowerCase(), v as string]),
    );
  } catch {
    // Never echo the value: it holds credentials.
    throw new SourceUnavailableError('The intelligence connectors secret is not a JSON object.');
  }
}
