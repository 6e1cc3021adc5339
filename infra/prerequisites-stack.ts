import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnAccount } from 'aws-cdk-lib/aws-apigateway';
import { ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';

/**
 * `SecurityInvestigation-Prerequisites` (`-<region>` when the region is pinned): what an account and
 * region need once, before any tenant stack, and what every tenant there shares. Today that is API
 * Gateway's account-level CloudWatch Logs role (AWS::ApiGateway::Account): without it a stage that
 * writes access logs fails with "CloudWatch Logs role ARN must be set in account settings to enable
 * logging". It is one setting per account and region, so it lives here and not in a tenant stack
 * (two tenants would each claim it, and deleting either would be the other's problem). Every tenant
 * app synthesises the same template under the same name, so deploying it from any of them is the same
 * stack and a no-op after the first. https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-logging.html
 */
export function prerequisitesStackName(region?: string): string {
  return `SecurityInvestigation-Prerequisites${region ? `-${region}` : ''}`;
}

export class PrerequisitesStack extends Stack {
  readonly gatewayLogsRole: Role;

  /**
   * A fleet (infra/fleet.ts) has one per account and region its tenants use: the construct ID (what
   * `cdk deploy` selects) then also names the account; the CloudFormation stack name stays the same.
   */
  constructor(scope: Construct, props: StackProps & { region?: string; account?: string }) {
    const { region, account, ...rest } = props;
    const name = prerequisitesStackName(region);
    super(scope, account ? `${name}-${account}` : name, {
      stackName: name,
      description:
        'Security Investigation Service: account prerequisites shared by every tenant in this account and region',
      ...(region || account
        ? { env: { ...(account ? { account } : {}), ...(region ? { region } : {}) } }
        : {}),
      ...rest,
    });
    this.gatewayLogsRole = new Role(this, 'ApiGatewayCloudWatchLogsRole', {
      assumedBy: new ServicePrincipal('apigateway.amazonaws.com'),
      description:
        "API Gateway's account-level role for writing access and execution logs to CloudWatch Logs",
      managedPolicies: [
        ManagedPolicy.fromAwsManagedPolicyName('service-role/AmazonAPIGatewayPushToCloudWatchLogs'),
      ],
    });
    Validations.of(this.gatewayLogsRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      reason:
        "AWS's documented policy for API Gateway's account logging role: API Gateway names the log groups it creates itself, so a policy of our own would need the same wildcards.",
    });
    new CfnAccount(this, 'ApiGatewayAccount', { cloudWatchRoleArn: this.gatewayLogsRole.roleArn });
  }
}
