import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { IncidentSync, siemConnectorsFromContext } from '../../../infra/constructs/incident-sync';
import { cdkJsonContext } from '../../support/synth';

const SPLUNK_SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:sis/splunk-AbCdEf';

function synth(context: Record<string, unknown> = {}) {
  const app = new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [], ...context } });
  const stack = new Stack(app, 'SyncTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const { connectors, pullIntervalMinutes } = siemConnectorsFromContext(stack.node);
  const sync = new IncidentSync(stack, 'IncidentSync', {
    defaults: {
      tenant: 'acme',
      environment: { SIS_TENANT: 'acme' },
      logRetention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    },
    tenant: 'acme',
    removalPolicy: RemovalPolicy.DESTROY,
    connectors,
    pullIntervalMinutes,
  });
  return { template: Template.fromStack(stack), sync };
}

describe('IncidentSync construct', () => {
  const { template } = synth({
    siemSplunkUrl: 'https://splunk.example.com:8089',
    siemSplunkSecretArn: SPLUNK_SECRET,
    siemPullIntervalMinutes: '10',
  });

  it('builds an encrypted, TLS-only queue that dead-letters after three deliveries', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'sis-acme-incidents',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 360,
      RedrivePolicy: { deadLetterTargetArn: Match.anyValue(), maxReceiveCount: 3 },
    });
    template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'sis-acme-incidents-dlq',
      MessageRetentionPeriod: 1_209_600,
    });
    const policies = template.findResources('AWS::SQS::QueuePolicy');
    expect(Object.keys(policies)).toHaveLength(2);
    for (const policy of Object.values(policies)) {
      expect(JSON.stringify(policy)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it('feeds the consumer in batches of 10 with partial batch failure reporting', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FunctionName: Match.anyValue(),
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });

  it('schedules every SIEM, enabling only the configured one, and lets the pull read only its secret', () => {
    const schedules = template.findResources('AWS::Scheduler::Schedule');
    const byName = Object.fromEntries(
      Object.values(schedules).map((s) => [s.Properties.Name, s.Properties as Record<string, unknown>]),
    );
    expect(Object.keys(byName).sort()).toEqual([
      'sis-acme-siem-pull-elastic',
      'sis-acme-siem-pull-sentinel',
      'sis-acme-siem-pull-splunk',
    ]);
    expect(byName['sis-acme-siem-pull-splunk']).toMatchObject({
      State: 'ENABLED',
      ScheduleExpression: 'rate(10 minutes)',
      Target: expect.objectContaining({ Input: '{"connector":"splunk"}' }),
    });
    expect(byName['sis-acme-siem-pull-sentinel']?.State).toBe('DISABLED');
    template.hasResourceProperties('AWS::IAM::Role', {
      Policies: [
        Match.objectLike({
          PolicyDocument: {
            Statement: Match.arrayWith([
              Match.objectLike({
                Action: 'secretsmanager:GetSecretValue',
                Effect: 'Allow',
                Resource: SPLUNK_SECRET,
              }),
            ]),
          },
        }),
      ],
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'sis-acme-siem-pull',
      Environment: {
        Variables: Match.objectLike({
          SIS_SIEM_SPLUNK_URL: 'https://splunk.example.com:8089',
          SIS_SIEM_SPLUNK_SECRET_ARN: SPLUNK_SECRET,
        }),
      },
    });
  });

  it('grants no secret and enables no schedule when no connector is configured', () => {
    const bare = synth().template;
    const states = Object.values(bare.findResources('AWS::Scheduler::Schedule')).map(
      (s) => s.Properties.State,
    );
    expect(states).toEqual(['DISABLED', 'DISABLED', 'DISABLED']);
    expect(JSON.stringify(bare.toJSON())).not.toContain('secretsmanager:GetSecretValue');
  });

  it('refuses half-configured or insecure connector settings', () => {
    expect(() => synth({ siemSplunkUrl: 'https://splunk.example.com:8089' })).toThrow(/siemSplunkSecretArn/);
    expect(() =>
      synth({ siemElasticUrl: 'http://kibana.example.com', siemElasticSecretArn: SPLUNK_SECRET }),
    ).toThrow(/https/);
    expect(() =>
      synth({ siemSentinelUrl: 'https://management.azure.com/x', siemSentinelSecretArn: 'my-secret' }),
    ).toThrow(/secret ARN/);
  });
});
