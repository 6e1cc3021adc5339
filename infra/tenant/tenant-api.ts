import type { RemovalPolicy } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../../shared/api/route-types';
import { ServiceApi } from '../constructs/service-api';
import type { TenantSettings } from '../settings';
import type { TelemetryProfile } from '../telemetry';

/** The tenant's REST API with its usage plan and console throttle from the settings. */
export function tenantApi(
  scope: Construct,
  settings: TenantSettings,
  routes: readonly RouteDefinition[],
  removalPolicy: RemovalPolicy,
  telemetry: TelemetryProfile,
): ServiceApi {
  return new ServiceApi(scope, 'Api', {
    tenant: settings.tenant,
    authorizerCacheTtlSeconds: settings.authorizerCacheTtlSeconds,
    logRetention: settings.logRetentionDays,
    removalPolicy,
    telemetry,
    defaultLimits: {
      rateLimit: settings.rateLimitPerSecond,
      burstLimit: settings.burstLimit,
      dailyQuota: settings.dailyQuota,
    },
    consoleThrottle: {
      routes,
      rateLimit: settings.consoleRateLimitPerSecond,
      burstLimit: settings.consoleBurstLimit,
    },
  });
}

/**
 * SIS_PUBLIC_URL of every function: the setting, the custom domain, or the API's URL, built from the
 * API ID, not the stage, so no function depends on the deployment.
 */
export function publicUrlOf(settings: TenantSettings, api: ServiceApi): string {
  return (
    settings.publicUrl ?? (settings.customDomainName ? `https://${settings.customDomainName}` : api.baseUrl)
  );
}
