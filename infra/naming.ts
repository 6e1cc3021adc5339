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
