import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { z } from 'zod';

/**
 * The per-tenant deployment settings, read from CDK context (`-c tenant=acme` or cdk.json). A wrong
 * value stops synthesis with a message naming the setting, before any resource is built.
 */
const RETENTION_DAYS = new Set<number>(
  Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'),
);

export const tenantSettingsSchema = z.object({
  tenant: z
    .string({ error: 'is required: pass -c tenant=<name> (lowercase letters, digits and dashes)' })
    .regex(
      /^[a-z0-9][a-z0-9-]{0,30}$/,
      'must be 1-31 lowercase letters, digits or dashes, starting with a letter or digit',
    ),
  publicUrl: z.url().optional(),
  authorizerCacheTtlSeconds: z.coerce.number().int().min(0).max(3600).default(0),
  // API Gateway ends an integration after 29 s; the synchronous start must answer before that.
  syncWaitSeconds: z.coerce.number().int().min(1).max(27).default(25),
  removalPolicy: z.enum(['retain', 'destroy']).default('retain'),
  logRetentionDays: z.coerce
    .number()
    .int()
    .refine((days) => RETENTION_DAYS.has(days), {
      error: `must be one of ${[...RETENTION_DAYS].sort((a, b) => a - b).join(', ')}`,
    })
    .default(30)
    .transform((days) => days as RetentionDays),
});

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const SETTING_KEYS = Object.keys(tenantSettingsSchema.shape) as (keyof TenantSettings)[];

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export function parseTenantSettings(input: Record<string, unknown>): TenantSettings {
  const result = tenantSettingsSchema.safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `context '${issue.path.join('.')}' ${issue.message}`);
    throw new SettingsError(`Invalid deployment settings: ${problems.join('; ')}`);
  }
  return result.data;
}

export function tenantSettingsFromContext(node: Node): TenantSettings {
  const input: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = node.tryGetContext(key);
    if (value !== undefined && value !== '') input[key] = value;
  }
  return parseTenantSettings(input);
}
