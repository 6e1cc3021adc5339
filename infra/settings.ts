import type { Node } from 'constructs';
import { z } from 'zod';
import { FEED_SOURCES } from '../shared/domain/feeds/sources';
import { KEYLESS_CONNECTORS } from '../shared/domain/intel/names';
import { retentionProblem } from '../shared/domain/retention/retention';
import { COGNITO_RESERVED_WORDS, cognitoReservedWordIn, defaultConsoleDomainPrefix } from './naming';
import { SETTING_NAMES, SETTINGS } from './settings/declaration';

export type { ConsoleIdentityProviderSetting } from './settings/context-values';
export { consoleIdentityProviderSchema } from './settings/context-values';
export { DEFAULT_FEEDS } from './settings/declaration';

/**
 * The per-tenant deployment settings, read from CDK context (`-c tenant=acme` or cdk.json). A wrong
 * value stops synthesis with a message naming the setting, before any resource is built. Each
 * setting is declared once in infra/settings/declaration.ts; the rules between settings are here.
 */
type SettingsShape = { [K in keyof typeof SETTINGS]: (typeof SETTINGS)[K]['schema'] };
const shape = Object.fromEntries(SETTING_NAMES.map((name) => [name, SETTINGS[name].schema])) as SettingsShape;

export const tenantSettingsSchema = z
  .object(shape)
  .refine((s) => s.analyst !== 'bedrock' || Boolean(s.bedrockModelId), {
    error: 'bedrockModelId is required when analyst is bedrock',
    path: ['bedrockModelId'],
  })
  .refine((s) => Boolean(s.bedrockGuardrailId) === Boolean(s.bedrockGuardrailVersion), {
    error: 'bedrockGuardrailId and bedrockGuardrailVersion must be given together',
    path: ['bedrockGuardrailId'],
  })
  .refine((s) => s.intelConnectors.every((name) => KEYLESS_CONNECTORS.includes(name)) || !!s.intelSecretArn, {
    error: 'intelConnectors with keyed sources need intelSecretArn (the secret holding their keys)',
    path: ['intelSecretArn'],
  })
  .refine((s) => !s.intelConnectors.includes('misp') || Boolean(s.intelMispUrl), {
    error: "is required when intelConnectors names misp (the tenant's own MISP server, https)",
    path: ['intelMispUrl'],
  })
  .refine((s) => s.feeds.every((name) => !FEED_SOURCES[name].key?.required) || !!s.intelSecretArn, {
    error:
      'feeds URLHAUS and THREATFOX need the abuse.ch Auth-Key: set intelSecretArn (keys URLHAUS, THREATFOX)',
    path: ['intelSecretArn'],
  })
  .refine((s) => Boolean(s.customDomainName) === Boolean(s.customDomainCertificateArn), {
    error: 'customDomainName and customDomainCertificateArn must be given together',
    path: ['customDomainName'],
  })
  .superRefine((s, context) => {
    // Without consoleDomainPrefix the console's Cognito domain prefix is built on the tenant, and
    // Cognito refuses a prefix holding a reserved word at deploy time: refuse it here, naming both.
    const prefix = defaultConsoleDomainPrefix(s.tenant);
    const reserved = s.consoleDomainPrefix === undefined ? cognitoReservedWordIn(prefix) : undefined;
    if (reserved)
      context.addIssue({
        code: 'custom',
        path: ['tenant'],
        message: `makes the console's Cognito domain prefix ${prefix}, which contains "${reserved}": Cognito refuses ${COGNITO_RESERVED_WORDS.join(', ')} in a domain prefix; set consoleDomainPrefix to one without them`,
      });
  })
  .superRefine((s, context) => {
    const problem = retentionProblem({
      sessions: s.sessionRetentionDays,
      incidents: s.incidentRetentionDays,
      graph: s.graphRetentionDays,
      audit: s.auditRetentionDays,
    });
    if (problem) context.addIssue({ code: 'custom', path: ['auditRetentionDays'], message: problem });
  });

export type TenantSettings = z.infer<typeof tenantSettingsSchema>;

export const SETTING_KEYS: readonly (keyof TenantSettings)[] = SETTING_NAMES;

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

/** The settings given in the app's context (cdk.json and `-c`), unset ones left out. */
export function settingsInContext(node: Node): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = node.tryGetContext(key);
    if (value !== undefined && value !== '') input[key] = value;
  }
  return input;
}

export function tenantSettingsFromContext(node: Node): TenantSettings {
  return parseTenantSettings(settingsInContext(node));
}
