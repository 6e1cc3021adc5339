import {
  APIGatewayClient,
  CreateApiKeyCommand,
  CreateUsagePlanCommand,
  CreateUsagePlanKeyCommand,
  DeleteApiKeyCommand,
  DeleteUsagePlanCommand,
  FlushStageAuthorizersCacheCommand,
  UpdateApiKeyCommand,
  UpdateUsagePlanCommand,
} from '@aws-sdk/client-api-gateway';
import type { Config } from '../config';
import { randomIdentifier } from '../domain/keys/api-key';
import type { ApiKeyRecord } from '../domain/keys/key-lifecycle';
import {
  DEFAULT_RATE_LIMIT,
  deploymentDefaultRateLimit,
  isDefaultRateLimit,
  type RateLimitSettings,
} from '../domain/keys/rate-limit';
import { TENANT_TAG } from './api-gateway-names';

/**
 * API Gateway control-plane side of API keys (AWS only).
 *
 * Per-key throttling and quotas are API Gateway usage plans. The stack sets the API's key source to
 * AUTHORIZER, so the "API key" API Gateway counts against is whatever `usageIdentifierKey` the
 * authorizer returns — never a value a client sends. Each service key therefore gets an API Gateway
 * API key whose value is a random, non-secret usage identifier stored on the key record. Keys with the
 * deployment's default limits (SIS_DEFAULT_*, the default plan's own) join the stack's default plan
 * (SIS_USAGE_PLAN_ID); keys with other limits get their own plan (mind the account quota of 300 usage
 * plans per region).
 *
 * With SIS_REST_API_ID unset (local runtime, tests) every operation is a no-op; the local gateway
 * enforces the same numbers from the authorizer context.
 */
export interface UsageIdentity {
  usage_identifier_key: string;
  apigw_key_id: string;
  usage_plan_id: string;
}

export interface UsagePlanPort {
  /** Registers a new service key; undefined when there is no API Gateway to register with. */
  register(key: Pick<ApiKeyRecord, 'key_id' | 'rate_limit'>): Promise<UsageIdentity | undefined>;
  /** Undoes {@link register} when storing the key failed; best effort. */
  unregister(identity: UsageIdentity): Promise<void>;
  disable(key: Pick<ApiKeyRecord, 'apigw_key_id'>): Promise<void>;
  /** After a revocation: cached authorizer decisions must not outlive it. */
  flushAuthorizerCache(): Promise<void>;
}

export const noUsagePlans: UsagePlanPort = {
  register: async () => undefined,
  unregister: async () => undefined,
  disable: async () => undefined,
  flushAuthorizerCache: async () => undefined,
};

export interface UsagePlanSettings {
  tenant: string;
  restApiId: string;
  stageName: string;
  defaultUsagePlanId?: string;
  /** The default plan's limits; a key with exactly these joins it. Built-in defaults when omitted. */
  defaultRateLimit?: RateLimitSettings;
  authorizerCacheTtlSeconds: number;
}

export type ControlPlaneClient = Pick<APIGatewayClient, 'send'>;

export class ApiGatewayUsagePlans implements UsagePlanPort {
  constructor(
    private readonly client: ControlPlaneClient,
    private readonly settings: UsagePlanSettings,
  ) {}

  private get apiStage(): string {
    return `${this.settings.restApiId}:${this.settings.stageName}`;
  }

  async register(key: Pick<ApiKeyRecord, 'key_id' | 'rate_limit'>): Promise<UsageIdentity> {
    const { tenant, restApiId, stageName, defaultUsagePlanId } = this.settings;
    const resourceName = `sis-${tenant}-${key.key_id}`;
    const created = await this.client.send(
      new CreateApiKeyCommand({
        name: resourceName,
        description: `Usage-plan identifier of service key ${key.key_id}; not a credential`,
        enabled: true,
        value: `sisu_${randomIdentifier(20)}`,
        tags: { [TENANT_TAG]: tenant, 'sis:key_id': key.key_id },
      }),
    );
    const apiKeyId = created.id;
    const value = created.value;
    if (!apiKeyId || !value) throw new Error('API Gateway returned no API key ID or value');
    let ownPlanId: string | undefined;
    try {
      let planId = defaultUsagePlanId;
      if (
        !planId ||
        !isDefaultRateLimit(key.rate_limit, this.settings.defaultRateLimit ?? DEFAULT_RATE_LIMIT)
      ) {
        const { rate_per_second, burst, daily_quota } = key.rate_limit;
        const plan = await this.client.send(
          new CreateUsagePlanCommand({
            name: resourceName,
            description: `Limits of service key ${key.key_id}`,
            apiStages: [{ apiId: restApiId, stage: stageName }],
            throttle: { rateLimit: rate_per_second, burstLimit: burst },
            ...(daily_quota !== undefined ? { quota: { limit: daily_quota, period: 'DAY' } } : {}),
            tags: { [TENANT_TAG]: tenant, 'sis:key_id': key.key_id },
          }),
        );
        if (!plan.id) throw new Error('API Gateway returned no usage plan ID');
        ownPlanId = plan.id;
        planId = plan.id;
      }
      await this.client.send(
        new CreateUsagePlanKeyCommand({ usagePlanId: planId, keyId: apiKeyId, keyType: 'API_KEY' }),
      );
      return { usage_identifier_key: value, apigw_key_id: apiKeyId, usage_plan_id: planId };
    } catch (error) {
      await this.unregister({
        usage_identifier_key: value,
        apigw_key_id: apiKeyId,
        usage_plan_id: ownPlanId ?? '',
      });
      throw error;
    }
  }

  async unregister(identity: UsageIdentity): Promise<void> {
    await this.client.send(new DeleteApiKeyCommand({ apiKey: identity.apigw_key_id })).catch(() => undefined);
    if (identity.usage_plan_id && identity.usage_plan_id !== this.settings.defaultUsagePlanId) {
      // A plan still attached to a stage cannot be deleted.
      await this.client
        .send(
          new UpdateUsagePlanCommand({
            usagePlanId: identity.usage_plan_id,
            patchOperations: [{ op: 'remove', path: '/apiStages', value: this.apiStage }],
          }),
        )
        .catch(() => undefined);
      await this.client
        .send(new DeleteUsagePlanCommand({ usagePlanId: identity.usage_plan_id }))
        .catch(() => undefined);
    }
  }

  async disable(key: Pick<ApiKeyRecord, 'apigw_key_id'>): Promise<void> {
    if (!key.apigw_key_id) return;
    await this.client.send(
      new UpdateApiKeyCommand({
        apiKey: key.apigw_key_id,
        patchOperations: [{ op: 'replace', path: '/enabled', value: 'false' }],
      }),
    );
  }

  async flushAuthorizerCache(): Promise<void> {
    if (this.settings.authorizerCacheTtlSeconds <= 0) return;
    await this.client.send(
      new FlushStageAuthorizersCacheCommand({
        restApiId: this.settings.restApiId,
        stageName: this.settings.stageName,
      }),
    );
  }
}

/** The deployment's default per-key limits from SIS_DEFAULT_*; the built-in defaults when unset. */
export function defaultRateLimitFromConfig(cfg: Config): RateLimitSettings {
  return deploymentDefaultRateLimit({
    ratePerSecond: cfg.SIS_DEFAULT_RATE_PER_SECOND,
    burst: cfg.SIS_DEFAULT_BURST,
    dailyQuota: cfg.SIS_DEFAULT_DAILY_QUOTA,
  });
}

export function usagePlansFromConfig(cfg: Config, client?: ControlPlaneClient): UsagePlanPort {
  if (!cfg.SIS_REST_API_ID) return noUsagePlans;
  if (!cfg.SIS_STAGE_NAME) throw new Error('SIS_STAGE_NAME must be set together with SIS_REST_API_ID');
  const controlPlane = client ?? new APIGatewayClient({ region: cfg.AWS_REGION, maxAttempts: 4 });
  return new ApiGatewayUsagePlans(controlPlane, {
    tenant: cfg.SIS_TENANT,
    restApiId: cfg.SIS_REST_API_ID,
    stageName: cfg.SIS_STAGE_NAME,
    ...(cfg.SIS_USAGE_PLAN_ID ? { defaultUsagePlanId: cfg.SIS_USAGE_PLAN_ID } : {}),
    defaultRateLimit: defaultRateLimitFromConfig(cfg),
    authorizerCacheTtlSeconds: cfg.SIS_AUTHORIZER_CACHE_TTL_SECONDS,
  });
}
