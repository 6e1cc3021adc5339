import { CfnOutput } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ServiceApi } from '../constructs/service-api';
import { ApiWebAcl } from '../constructs/waf';
import type { TenantSettings } from '../settings';

/** The optional custom domain (with its DNS outputs) and WAF in front of the stage. */
export function addEdge(scope: Construct, settings: TenantSettings, api: ServiceApi): ApiWebAcl | undefined {
  if (settings.customDomainName && settings.customDomainCertificateArn) {
    const domain = api.addCustomDomain(settings.customDomainName, settings.customDomainCertificateArn);
    new CfnOutput(scope, 'CustomDomainTarget', {
      value: domain.domainNameAliasDomainName,
      description: `DNS target of ${settings.customDomainName}: a CNAME, or an alias record in zone CustomDomainZone`,
    });
    new CfnOutput(scope, 'CustomDomainZone', { value: domain.domainNameAliasHostedZoneId });
  }
  if (!settings.enableWaf) return undefined;
  return new ApiWebAcl(scope, 'WebAcl', {
    tenant: settings.tenant,
    stageArn: api.api.deploymentStage.stageArn,
    rateLimitPerIp: settings.wafRateLimitPerIp,
  });
}
