import {
  GetRestApisCommand,
  GetStageCommand,
  GetUsagePlanCommand,
  GetUsagePlansCommand,
  type RestApi,
  type UsagePlan,
} from '@aws-sdk/client-api-gateway';
import type { Config } from '../../shared/config';
import {
  API_STAGE_NAME,
  defaultUsagePlanName,
  restApiName,
  TENANT_TAG,
} from '../../shared/platform/api-gateway-names';
import type { ControlPlaneClient } from '../../shared/platform/usage-plans';

/**
 * Finds a deployed tenant's REST API, stage and default usage plan, so `sis admin bootstrap --aws`
 * registers its key with API Gateway exactly as key administration does. Every protected method has
 * `apiKeyRequired`: a key that is in no usage plan of the stage is refused with 403, whatever the
 * authorizer says.
 *
 * The resources are found by the names the stack gives them (shared/platform/api-gateway-names.ts):
 * the REST API `sis-<tenant>`, its stage `prod`, and the usage plan `sis-<tenant>-default` tagged
 * `sis:tenant=<tenant>` and attached to that stage. REST API names are not unique in API Gateway; when
 * several APIs carry the name, the one the tenant's default plan is attached to is taken.
 */
export interface ApiGatewayIds {
  restApiId: string;
  stageName: string;
  usagePlanId: string;
}

/** The default plan's per-key limits, as the key service's SIS_DEFAULT_* variables express them. */
export interface PlanLimits {
  ratePerSecond: number;
  burst: number;
  dailyQuota?: number;
}

export interface DiscoveredApi extends ApiGatewayIds {
  /** Absent when the plan has no throttle (the stack always sets one). */
  defaultLimits?: PlanLimits;
  /** Which IDs were looked up rather than given. */
  discovered: (keyof ApiGatewayIds)[];
}

export interface DiscoveryRequest {
  tenant: string;
  region: string;
  /** IDs the operator set explicitly (SIS_REST_API_ID, SIS_STAGE_NAME, SIS_USAGE_PLAN_ID); they win. */
  known?: Partial<ApiGatewayIds>;
}

export class ApiDiscoveryError extends Error {
  override readonly name = 'ApiDiscoveryError';
}

/** API Gateway's largest page for GetRestApis and GetUsagePlans. */
export const PAGE_LIMIT = 500;

function remedy(tenant: string, region: string): string {
  return `Is the stack of tenant ${tenant} deployed in ${region}? Set AWS_REGION to the stack's region, or set SIS_REST_API_ID, SIS_STAGE_NAME and SIS_USAGE_PLAN_ID from the stack outputs.`;
}

interface Page<T> {
  items?: T[] | undefined;
  position?: string | undefined;
}

async function listAll<T>(what: string, fetchPage: (position?: string) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let position: string | undefined;
  do {
    const page = await fetchPage(position);
    items.push(...(page.items ?? []));
    position = page.position || undefined;
    if (position !== undefined) {
      // A position handed back twice would page forever.
      if (seen.has(position)) throw new Error(`${what} returned the page position ${position} twice`);
      seen.add(position);
    }
  } while (position !== undefined);
  return items;
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotFoundException';
}

function limitsOf(plan: UsagePlan): PlanLimits | undefined {
  const rate = plan.throttle?.rateLimit;
  const burst = plan.throttle?.burstLimit;
  if (rate === undefined || burst === undefined) return undefined;
  // Key records know daily quotas only, which is what the stack creates.
  const quota = plan.quota?.period === 'DAY' ? plan.quota.limit : undefined;
  return { ratePerSecond: rate, burst, ...(quota ? { dailyQuota: quota } : {}) };
}

function attachedTo(plan: UsagePlan, restApiId: string, stageName: string): boolean {
  return (plan.apiStages ?? []).some((s) => s.apiId === restApiId && s.stage === stageName);
}

export async function discoverApiGateway(
  client: ControlPlaneClient,
  request: DiscoveryRequest,
): Promise<DiscoveredApi> {
  const { tenant, region, known = {} } = request;
  const context = `API Gateway of tenant ${tenant} in ${region}`;
  const call = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApiDiscoveryError || isNotFound(error)) throw error;
      const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      throw new ApiDiscoveryError(`Could not look up the ${context} (${operation}): ${detail}`);
    }
  };

  const planName = defaultUsagePlanName(tenant);
  let tenantPlans: UsagePlan[] | undefined;
  const defaultPlans = async (): Promise<UsagePlan[]> => {
    tenantPlans ??= (
      await call('GetUsagePlans', () =>
        listAll('GetUsagePlans', async (position) =>
          client.send(new GetUsagePlansCommand({ limit: PAGE_LIMIT, ...(position ? { position } : {}) })),
        ),
      )
    ).filter((plan) => plan.name === planName && plan.tags?.[TENANT_TAG] === tenant);
    return tenantPlans;
  };

  const discovered: (keyof ApiGatewayIds)[] = [];
  const stageName = known.stageName ?? API_STAGE_NAME;
  if (!known.stageName) discovered.push('stageName');

  let restApiId = known.restApiId;
  if (!restApiId) {
    const apiName = restApiName(tenant);
    const apis = (
      await call('GetRestApis', () =>
        listAll<RestApi>('GetRestApis', async (position) =>
          client.send(new GetRestApisCommand({ limit: PAGE_LIMIT, ...(position ? { position } : {}) })),
        ),
      )
    ).filter((api) => api.name === apiName && api.id);
    if (apis.length === 0) {
      throw new ApiDiscoveryError(
        `No REST API named "${apiName}" found in ${region}. ${remedy(tenant, region)}`,
      );
    }
    let candidates = apis;
    if (apis.length > 1) {
      const plans = await defaultPlans();
      candidates = apis.filter((api) => plans.some((plan) => attachedTo(plan, api.id as string, stageName)));
    }
    if (candidates.length !== 1) {
      throw new ApiDiscoveryError(
        `${apis.length} REST APIs are named "${apiName}" in ${region} (${apis.map((a) => a.id).join(', ')}), and ${candidates.length} of them carry the usage plan "${planName}" on stage ${stageName}. Set SIS_REST_API_ID (stack output RestApiId) to choose.`,
      );
    }
    restApiId = candidates[0]?.id as string;
    discovered.push('restApiId');
  }

  if (discovered.length) {
    try {
      await call('GetStage', () => client.send(new GetStageCommand({ restApiId, stageName })));
    } catch (error) {
      if (!isNotFound(error)) throw error;
      throw new ApiDiscoveryError(
        `REST API ${restApiId} of tenant ${tenant} has no stage "${stageName}" in ${region}. ${remedy(tenant, region)}`,
      );
    }
  }

  let plan: UsagePlan;
  if (known.usagePlanId) {
    const usagePlanId = known.usagePlanId;
    try {
      plan = await call('GetUsagePlan', () => client.send(new GetUsagePlanCommand({ usagePlanId })));
    } catch (error) {
      if (!isNotFound(error)) throw error;
      throw new ApiDiscoveryError(
        `Usage plan ${usagePlanId} (SIS_USAGE_PLAN_ID) of tenant ${tenant} not found in ${region}. ${remedy(tenant, region)}`,
      );
    }
  } else {
    const plans = (await defaultPlans()).filter((p) => attachedTo(p, restApiId, stageName));
    if (plans.length !== 1) {
      const found = plans.length
        ? `${plans.length} usage plans (${plans.map((p) => p.id).join(', ')}) match`
        : 'No usage plan matches';
      throw new ApiDiscoveryError(
        `${found}: named "${planName}", tagged ${TENANT_TAG}=${tenant} and attached to stage ${stageName} of REST API ${restApiId} in ${region}. ${plans.length ? 'Set SIS_USAGE_PLAN_ID (stack output UsagePlanId) to choose.' : remedy(tenant, region)}`,
      );
    }
    plan = plans[0] as UsagePlan;
    discovered.push('usagePlanId');
  }
  const usagePlanId = known.usagePlanId ?? plan.id;
  if (!usagePlanId) throw new ApiDiscoveryError(`The usage plan "${planName}" has no ID in ${context}.`);
  const defaultLimits = limitsOf(plan);
  return { restApiId, stageName, usagePlanId, ...(defaultLimits ? { defaultLimits } : {}), discovered };
}

/**
 * The configuration the bootstrap key is created with on AWS: the operator's SIS_REST_API_ID,
 * SIS_STAGE_NAME and SIS_USAGE_PLAN_ID where set, discovered otherwise, and the default plan's limits as
 * SIS_DEFAULT_* unless the operator set any of those, so the key's stored limits are the ones API
 * Gateway enforces on it.
 */
export async function withApiGateway(
  cfg: Config,
  tenant: string | undefined,
  client: ControlPlaneClient,
): Promise<{ config: Config; summary: string }> {
  const known: Partial<ApiGatewayIds> = {
    ...(cfg.SIS_REST_API_ID ? { restApiId: cfg.SIS_REST_API_ID } : {}),
    ...(cfg.SIS_STAGE_NAME ? { stageName: cfg.SIS_STAGE_NAME } : {}),
    ...(cfg.SIS_USAGE_PLAN_ID ? { usagePlanId: cfg.SIS_USAGE_PLAN_ID } : {}),
  };
  // The tenant also tags the API Gateway key, and key administration may change only keys carrying
  // its own tenant's tag: never fall back to the configuration's default tenant.
  if (!tenant) {
    throw new ApiDiscoveryError(
      "On AWS the key joins the tenant's API Gateway usage plan and is tagged with the tenant: pass --tenant <tenant> (or set SIS_TENANT).",
    );
  }
  const limitsSet =
    cfg.SIS_DEFAULT_RATE_PER_SECOND !== undefined ||
    cfg.SIS_DEFAULT_BURST !== undefined ||
    cfg.SIS_DEFAULT_DAILY_QUOTA !== undefined;
  if (known.restApiId && known.stageName && known.usagePlanId && limitsSet) {
    return {
      config: cfg,
      summary: `API Gateway of tenant ${tenant}: REST API ${known.restApiId}, stage ${known.stageName}, usage plan ${known.usagePlanId}; from SIS_*.`,
    };
  }
  const found = await discoverApiGateway(client, { tenant, region: cfg.AWS_REGION, known });
  const limits = limitsSet ? undefined : found.defaultLimits;
  const config: Config = {
    ...cfg,
    SIS_REST_API_ID: found.restApiId,
    SIS_STAGE_NAME: found.stageName,
    SIS_USAGE_PLAN_ID: found.usagePlanId,
    ...(limits
      ? {
          SIS_DEFAULT_RATE_PER_SECOND: limits.ratePerSecond,
          SIS_DEFAULT_BURST: limits.burst,
          ...(limits.dailyQuota ? { SIS_DEFAULT_DAILY_QUOTA: limits.dailyQuota } : {}),
        }
      : {}),
  };
  const described = found.defaultLimits
    ? ` (${found.defaultLimits.ratePerSecond}/s, burst ${found.defaultLimits.burst}, ${found.defaultLimits.dailyQuota ? `${found.defaultLimits.dailyQuota} per day` : 'no daily quota'})`
    : '';
  const how = found.discovered.length ? `found by name: ${found.discovered.join(', ')}` : 'from SIS_*';
  return {
    config,
    summary: `API Gateway of tenant ${tenant} in ${cfg.AWS_REGION}: REST API ${found.restApiId}, stage ${found.stageName}, usage plan ${found.usagePlanId}${described}; ${how}.`,
  };
}
