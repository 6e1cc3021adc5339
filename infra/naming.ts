import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SIEM_FORMATS } from '../shared/domain/siem';

/**
 * The physical names of a tenant's resources and the construct IDs derived from names. Every
 * physical name starts with `sis-<tenant>`, so several tenants share an account and region without
 * colliding; the names the `sis` CLI also looks up (REST API, usage plan) are in
 * shared/platform/api-gateway-names.ts.
 */

/** `sis-<tenant>`: the tenant's own prefix, and the whole name of its one-per-tenant resources. */
export function tenantPrefix(tenant: string): string {
  return `sis-${tenant}`;
}

/** `sis-<tenant>-<part>-<part>…`: the physical name of one of the tenant's resources. */
export function tenantResourceName(tenant: string, ...parts: string[]): string {
  return [tenantPrefix(tenant), ...parts].join('-');
}

/** The resource name with the tenant's prefix removed (`sis-acme-authorizer` → `authorizer`). */
export function withoutTenantPrefix(name: string, tenant: string): string {
  return name.replace(`${tenantPrefix(tenant)}-`, '');
}

/** `step-mark-active` or `Workflow/StatusChange` → `StepMarkActive`, `WorkflowStatusChange` (construct IDs). */
export function pascalCase(text: string): string {
  return text
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** `Workflow/StatusChangeDeadLetters` → `workflow-status-change-dead-letters` (physical-name parts). */
export function kebabCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .toLowerCase();
}

/**
 * The tenant's physical names AWS caps in length, each with its service's limit: every function is
 * named `sis-<tenant>-<its folder under functions/>` (Lambda: 64 characters), the SIEM pull schedules
 * `sis-<tenant>-siem-pull-<format>` (EventBridge Scheduler: 64). The longest tenant the settings
 * accept is derived from them, so a new function with a longer name lowers it instead of failing a
 * deploy.
 */
const NAME_LIMITS: readonly { kind: string; limit: number; parts: readonly string[][] }[] = [
  {
    kind: 'Lambda function name',
    limit: 64,
    parts: readdirSync(join(fileURLToPath(new URL('..', import.meta.url)), 'functions'), {
      withFileTypes: true,
    })
      .filter((entry) => entry.isDirectory())
      .map((entry) => [entry.name]),
  },
  {
    kind: 'EventBridge Scheduler schedule name',
    limit: 64,
    parts: SIEM_FORMATS.map((format) => ['siem-pull', format]),
  },
];

/** The generated name that leaves the least room for the tenant, and the tenant length it allows. */
export const LONGEST_NAME = (() => {
  const placeholder = '<tenant>';
  const candidates = NAME_LIMITS.flatMap(({ kind, limit, parts }) =>
    parts.map((p) => {
      const name = tenantResourceName(placeholder, ...p);
      return { kind, limit, name, maxTenant: limit - (name.length - placeholder.length) };
    }),
  );
  return candidates.reduce((tightest, c) => (c.maxTenant < tightest.maxTenant ? c : tightest));
})();

export const MAX_TENANT_LENGTH = LONGEST_NAME.maxTenant;

/**
 * Cognito refuses a domain prefix containing these words: "You can't use the text aws, amazon, or
 * cognito in the domain prefix."
 * https://docs.aws.amazon.com/cognito/latest/developerguide/cognito-user-pools-assign-domain-prefix.html
 */
export const COGNITO_RESERVED_WORDS = ['aws', 'amazon', 'cognito'] as const;

/** The reserved word a Cognito domain prefix contains, if any. */
export function cognitoReservedWordIn(prefix: string): string | undefined {
  return COGNITO_RESERVED_WORDS.find((word) => prefix.includes(word));
}

/** The console's Cognito domain prefix when consoleDomainPrefix is unset. */
export function defaultConsoleDomainPrefix(tenant: string): string {
  return tenantResourceName(tenant, 'console');
}
