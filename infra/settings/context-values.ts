import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { z } from 'zod';

/** Shapes several deployment settings share (infra/settings/declaration.ts). */

/** `-c enableWaf=true` arrives as a string; cdk.json may hold a real boolean. */
export const contextBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false']).transform((value) => value === 'true'),
]);

export const RETENTION_DAYS = new Set<number>(
  Object.values(RetentionDays).filter((value): value is number => typeof value === 'number'),
);

/** A JSON object given as `-c key='{...}'` arrives as a string; cdk.json holds the object itself. */
export const jsonContext = (value: unknown) => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** Comma-separated names, trimmed, empty parts dropped, each put in the given case. */
export const commaSeparated = (value: string, toCase: (name: string) => string) =>
  value
    .split(',')
    .map((name) => toCase(name.trim()))
    .filter(Boolean);

export const httpsUrl = () => z.url({ protocol: /^https$/, error: 'must be an https URL' });

/**
 * A URL people's browsers are sent to (console sign-in callbacks are built on it): "Amazon Cognito
 * requires HTTPS over HTTP except for http://localhost for testing purposes only" (127.0.0.1 is not
 * named, so it is refused here rather than at deploy).
 * https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_CreateUserPoolClient.html
 */
export function isCognitoCallbackBase(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === 'localhost');
}

export const callbackBaseUrl = () =>
  z.url().refine(isCognitoCallbackBase, {
    error:
      'must be an https URL (http only for localhost): Cognito refuses non-https sign-in callback and sign-out URLs built on it',
  });

/**
 * The tenant's own identity provider for the web console (docs/console.md), as a JSON object in
 * cdk.json or `-c consoleIdentityProvider='{...}'`: OIDC (e.g. Entra ID) with the client secret in
 * Secrets Manager, or SAML with its metadata URL. People arriving through it are then put in the
 * `analysts` or `admins` group.
 */
const identityProviderName = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1-32 letters, digits, _ or -');
export const consoleIdentityProviderSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('oidc'),
    name: identityProviderName,
    issuerUrl: z.url({ protocol: /^https$/ }),
    clientId: z.string().min(1).max(256),
    clientSecretArn: z.string().regex(/^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+$/),
  }),
  z.object({
    type: z.literal('saml'),
    name: identityProviderName,
    metadataUrl: z.url({ protocol: /^https$/ }),
  }),
]);
export type ConsoleIdentityProviderSetting = z.infer<typeof consoleIdentityProviderSchema>;
