/**
 * The names the stack gives a tenant's API Gateway resources. The CDK constructs name them with these
 * functions and the `sis` CLI finds them by the same names, so the two cannot drift apart.
 */

/** The one stage of every tenant's REST API. */
export const API_STAGE_NAME = 'prod';

/** Every API Gateway usage plan and key of a tenant carries this tag with the tenant as value. */
export const TENANT_TAG = 'sis:tenant';

export function restApiName(tenant: string): string {
  return `sis-${tenant}`;
}

/** The usage plan of keys created without their own limits. */
export function defaultUsagePlanName(tenant: string): string {
  return `sis-${tenant}-default`;
}
