import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { PrerequisitesStack, prerequisitesStackName } from '../../../infra/prerequisites-stack';
import { deployRefusalFindings } from '../../../scripts/check-deploy/deploy-refusals';
import type { CfnTemplate } from '../../../scripts/check-deploy/template-json';
import { synthTenantStack } from '../../support/synth';

/**
 * A fresh account gets API Gateway's account-level CloudWatch Logs role from the prerequisites stack
 * the app synthesises beside the tenant (issue 33, failure 3). Reads the shared default synth.
 */
describe('account prerequisites', () => {
  it("sets API Gateway's account CloudWatch Logs role in one stack every tenant of the account and region shares", () => {
    const { template, stack, prerequisites } = synthTenantStack();
    const tenantTemplate = template.toJSON() as CfnTemplate;
    const prerequisitesTemplate = Template.fromStack(prerequisites).toJSON() as CfnTemplate;
    expect(prerequisites.stackName).toBe(prerequisitesStackName());
    expect(stack.dependencies).toContain(prerequisites);
    const [account] = Object.values(prerequisitesTemplate.Resources).filter(
      (r) => r.Type === 'AWS::ApiGateway::Account',
    );
    const roleArn = account?.Properties?.CloudWatchRoleArn as { 'Fn::GetAtt': string[] } | undefined;
    const role = prerequisitesTemplate.Resources[roleArn?.['Fn::GetAtt'][0] ?? 'missing'];
    expect(JSON.stringify(role?.Properties)).toContain('apigateway.amazonaws.com');
    expect(JSON.stringify(role?.Properties)).toContain('AmazonAPIGatewayPushToCloudWatchLogs');
    // The tenant's stage logs: alone, its template is refused; with the prerequisites, not.
    expect(deployRefusalFindings(tenantTemplate, [tenantTemplate]).map((f) => f.check)).toContain(
      'deploy:apigateway-cloudwatch-role',
    );
    expect(deployRefusalFindings(tenantTemplate, [tenantTemplate, prerequisitesTemplate])).toEqual([]);
    // The stack holds nothing of a tenant: every tenant's app synthesises it byte for byte, so
    // deploying it again from another tenant is a no-op.
    const alone = new PrerequisitesStack(new App(), {});
    expect(Template.fromStack(alone).toJSON()).toEqual(prerequisitesTemplate);
  });

  it('names the prerequisites stack after a pinned region', () => {
    expect(new PrerequisitesStack(new App(), { region: 'eu-west-1' }).stackName).toBe(
      'SecurityInvestigation-Prerequisites-eu-west-1',
    );
  });
});
