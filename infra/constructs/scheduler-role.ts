import { Stack, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import type { ServiceFunction } from './service-function';

/**
 * The role EventBridge Scheduler assumes (`SchedulerRole` in `scope`, this account's scheduler only)
 * to invoke `target`; `role` names the function in the acknowledged finding ("the pull function").
 */
export function addSchedulerRole(scope: Construct, target: ServiceFunction, role: string): Role {
  const stack = Stack.of(scope);
  const schedulerRole = new Role(scope, 'SchedulerRole', {
    assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
    }),
    description: `Lets EventBridge Scheduler start ${target.functionName}`,
  });
  Validations.of(schedulerRole).acknowledge({
    id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(target.function.node.defaultChild as CfnFunction)}.Arn>:*]`,
    reason: `The scheduler may invoke ${role} and its versions, nothing else (grantInvoke).`,
  });
  return schedulerRole;
}
