import { ArnFormat, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import { EventInvokeConfig } from 'aws-cdk-lib/aws-lambda';
import { SnsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { tenantResourceName } from '../naming';
import { nagPseudo } from './function-permissions';
import { addSchedulerRole } from './scheduler-role';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

export const DELIVER_WEBHOOK_FUNCTION = 'deliver-webhook';
/**
 * One attempt per invocation: at most SIS_WEBHOOK_TIMEOUT_SECONDS (≤ 15 s) of HTTP plus its
 * DynamoDB claim and record, and the next attempt's schedule. A minute leaves room.
 */
const DELIVERY_TIMEOUT_SECONDS = 60;
/**
 * Lambda's retries of an asynchronous invocation the function did not complete (it threw, crashed or
 * timed out), a minute and two minutes later: the attempt's claim (its time limit + 30 s) has
 * expired by then, so the retry makes the attempt.
 */
export const DELIVERY_INVOKE_RETRIES = 2;

export interface WebhookDeliveryProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
}

/**
 * Webhook delivery on AWS (docs/soar.md "Webhooks"), with nothing always on (no queue, no poller):
 * the delivery function, invoked asynchronously for a first attempt and by one-shot EventBridge
 * Scheduler schedules (in the tenant's schedule group, deleted after they ran) for a retry; the
 * schedule group; and the role Scheduler runs them with, which may invoke the delivery function
 * only. `sendFailedInvocationsTo` (the stack, once Observability exists) gives the function's
 * asynchronous invocations their retries and on-failure destination.
 *
 * Grants and SIS_* variables come from FUNCTION_GRANTS like every other function's: `grantDispatch`
 * is what a function with `webhookDispatch` gets (`invoke` for publishers, `schedule` for retries).
 */
export class WebhookDelivery extends Construct {
  readonly deliver: ServiceFunction;
  readonly scheduleGroup: ScheduleGroup;
  /** The group's name as a literal (the grants' resource and its cdk-nag finding spell it). */
  readonly scheduleGroupName: string;
  readonly schedulerRole: Role;
  /** The delivery function's ARN, built from its name (its own variables cannot refer to the function). */
  readonly deliverFunctionArn: string;

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.deliver = new ServiceFunction(this, 'Deliver', {
      defaults: props.defaults,
      name: DELIVER_WEBHOOK_FUNCTION,
      timeoutSeconds: DELIVERY_TIMEOUT_SECONDS,
    });
    this.deliverFunctionArn = Stack.of(this).formatArn({
      service: 'lambda',
      resource: 'function',
      resourceName: this.deliver.functionName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    this.scheduleGroupName = tenantResourceName(props.tenant, 'webhooks');
    this.scheduleGroup = new ScheduleGroup(this, 'ScheduleGroup', {
      scheduleGroupName: this.scheduleGroupName,
      // Always removed with the stack: it holds only pending retries, which would target a deleted
      // function; the deliveries themselves stay in the (kept) sessions table.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.schedulerRole = addSchedulerRole(this, this.deliver, 'the delivery function');
    this.deliver.function.grantInvoke(this.schedulerRole);
  }

  /**
   * Lambda retries an invocation the function did not complete DELIVERY_INVOKE_RETRIES times, then
   * publishes its record (the message: webhook and delivery IDs, the attempt; the error) to `topic`,
   * the tenant's alarm topic, which mails the operator; each failed try also counts in the failures
   * alarm (Lambda's platform record). A delivery whose retries are spent is not this: the function
   * completes it as failed and logs it to the failures alarm.
   */
  sendFailedInvocationsTo(topic: ITopic): EventInvokeConfig {
    return new EventInvokeConfig(this, 'AsyncInvoke', {
      function: this.deliver.function,
      retryAttempts: DELIVERY_INVOKE_RETRIES,
      onFailure: new SnsDestination(topic),
    });
  }

  /**
   * What a function with `webhookDispatch` may do, and the variables naming the targets: `invoke`
   * (the publishers: first attempts) invoke the delivery function only; `schedule` (the delivery
   * function: retries) create schedules in the webhooks' group only and pass the scheduler role to
   * Scheduler only.
   */
  grantDispatch(fn: ServiceFunction, access: 'invoke' | 'schedule'): void {
    fn.addEnvironment('SIS_WEBHOOK_FUNCTION_ARN', this.deliverFunctionArn);
    if (access === 'invoke') {
      fn.addToPolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.deliverFunctionArn] }),
      );
      return;
    }
    const stack = Stack.of(this);
    fn.addToPolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule'],
        resources: [
          stack.formatArn({
            service: 'scheduler',
            resource: 'schedule',
            resourceName: `${this.scheduleGroupName}/*`,
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ],
      }),
    );
    fn.addToPolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [this.schedulerRole.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    // Created before the function that schedules into it.
    fn.function.node.addDependency(this.scheduleGroup);
    fn.addEnvironment('SIS_WEBHOOK_SCHEDULE_GROUP', this.scheduleGroupName);
    fn.addEnvironment('SIS_WEBHOOK_SCHEDULER_ROLE_ARN', this.schedulerRole.roleArn);
    const arnPrefix = `arn:${nagPseudo(stack.partition, 'Partition')}:scheduler:${nagPseudo(stack.region, 'Region')}:${nagPseudo(stack.account, 'AccountId')}`;
    Validations.of(fn.role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${arnPrefix}:schedule/${this.scheduleGroupName}/*]`,
      reason:
        'A retry is a one-shot schedule named by its delivery and attempt, created at run time; the grant is CreateSchedule in the webhooks schedule group only.',
    });
  }

  /** The construct's functions by name, for the stack's grant loop. */
  get functions(): [string, ServiceFunction][] {
    return [[DELIVER_WEBHOOK_FUNCTION, this.deliver]];
  }
}
