import { ArnFormat, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { tenantResourceName } from '../../naming';

/**
 * The SNS topic every alarm of the tenant notifies (`AlarmTopic` in `scope`), TLS only, that only
 * this tenant's alarms may publish to; with an address, an email subscription.
 */
export function addAlarmTopic(scope: Construct, tenant: string, alarmEmail?: string): Topic {
  const stack = Stack.of(scope);
  const topic = new Topic(scope, 'AlarmTopic', {
    topicName: tenantResourceName(tenant, 'alarms'),
    displayName: `Security Investigation Service alarms (${tenant})`,
    enforceSSL: true,
  });
  // The topic policy CDK writes for enforceSSL replaces SNS's default policy; allow exactly this
  // tenant's alarms to publish.
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'AllowTenantAlarms',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        ArnLike: {
          'aws:SourceArn': stack.formatArn({
            service: 'cloudwatch',
            resource: 'alarm',
            resourceName: tenantResourceName(tenant, '*'),
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        },
        StringEquals: { 'aws:SourceAccount': stack.account },
      },
    }),
  );
  if (alarmEmail) topic.addSubscription(new EmailSubscription(alarmEmail));
  Validations.of(topic).acknowledge({
    id: 'AwsSolutions-SNS2',
    reason:
      'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and a customer-managed key costs $1/month per tenant at idle; alarm notifications carry alarm names and thresholds only, and the failed-invocation records of the webhook delivery function (its on-failure destination) the IDs of a webhook and a delivery and the error, no tenant data.',
  });
  return topic;
}
