import { type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Rule } from 'aws-cdk-lib/aws-events';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { WorkflowType } from '../../shared/domain/investigation/workflow-type';
import { tenantResourceName } from '../naming';
import { type TelemetryProfile, telemetryProfile } from '../telemetry';
import {
  definitionTextFor,
  STALE_SESSION_SWEEP_FUNCTION,
  STATUS_CHANGE_FUNCTION,
  WORKFLOW_DEFINITION_PATH,
} from '../workflow/definition';
import type { AnalystSettings } from './analyst-model-grant';
import { addStaleSessionSweep, addStatusChange } from './investigation-workflow/ended-runs';
import { addStepFunctions } from './investigation-workflow/step-functions';
import type { ServiceFunction, ServiceFunctionDefaults } from './service-function';

export interface InvestigationWorkflowProps {
  defaults: ServiceFunctionDefaults;
  tenant: string;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Bedrock analyst mode (settings analyst=bedrock); absent: the rules analyst. */
  analyst?: AnalystSettings;
}

/**
 * The investigation workflow on AWS: two state machines, Standard and Express, built from the same
 * ASL file the local runtime runs (infra/workflow/investigation.asl.json, `${...}` placeholders
 * filled by definitionSubstitutions; the start function picks one per run), one ServiceFunction per
 * step, execution logging (failure events by default, infra/telemetry.ts) with the tenant's
 * retention and X-Ray tracing,
 * and an EventBridge rule that sends the Standard state machine's FAILED, TIMED_OUT and ABORTED
 * executions to the status-change function, so a session never stays active after its execution
 * ended (a step that could not even record the failure, a timeout, a stop from the console). Express
 * executions emit no such events: their failures end in the definition's own MarkFailed. A scheduled
 * sweeper is the backstop for the gaps those leave: a start that crashed before its run began, a
 * status-change event that never arrived, an Express run that died or passed its 5 minutes.
 *
 * Grants and SIS_* variables are added by the stack from FUNCTION_GRANTS, like every other function;
 * `functions` lists them.
 */
export class InvestigationWorkflow extends Construct {
  /** Standard: bedrock-mode runs and runs with connector lookups (shared/domain/investigation/workflow-type.ts). */
  readonly stateMachine: StateMachine;
  /** Express, from the same definition: every run that fits its 5 minutes (the rules analyst, no connector). */
  readonly expressStateMachine: StateMachine;
  readonly stepFunctions: Map<string, ServiceFunction>;
  /**
   * The steps declared `intelConnectors` (WORKFLOW_STEPS): the one that runs the connector tools
   * (step-run-intel) gets their settings and keys, the one that plans them (step-mark-active) their
   * settings.
   */
  readonly intelConnectorSteps: { fn: ServiceFunction; use: 'plan' | 'run' }[];
  readonly statusChangeFunction: ServiceFunction;
  readonly statusChangeRule: Rule;
  /** Status-change events EventBridge could not deliver after its retries. */
  readonly statusChangeDeadLetterQueue: Queue;
  readonly staleSessionSweepFunction: ServiceFunction;
  readonly staleSessionSweepRule: Rule;
  /** Sweep triggers EventBridge could not deliver: the sweeper could not be invoked for a while. */
  readonly staleSessionSweepDeadLetterQueue: Queue;
  readonly logGroup: LogGroup;
  readonly expressLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: InvestigationWorkflowProps) {
    super(scope, id);
    const steps = addStepFunctions(this, props.defaults, props.analyst);
    this.stepFunctions = steps.stepFunctions;
    this.intelConnectorSteps = steps.intelConnectorSteps;

    const telemetry = props.defaults.telemetry ?? telemetryProfile();
    const standard = this.stateMachineOf('standard', props, telemetry, steps.substitutions);
    this.stateMachine = standard.stateMachine;
    this.logGroup = standard.logGroup;
    const express = this.stateMachineOf('express', props, telemetry, steps.substitutions);
    this.expressStateMachine = express.stateMachine;
    this.expressLogGroup = express.logGroup;

    const statusChange = addStatusChange(this, props, this.stateMachine);
    this.statusChangeFunction = statusChange.fn;
    this.statusChangeDeadLetterQueue = statusChange.deadLetterQueue;
    this.statusChangeRule = statusChange.rule;
    const sweep = addStaleSessionSweep(this, props);
    this.staleSessionSweepFunction = sweep.fn;
    this.staleSessionSweepDeadLetterQueue = sweep.deadLetterQueue;
    this.staleSessionSweepRule = sweep.rule;
  }

  /**
   * One state machine of the definition (definitionTextFor: the same states; Express with its own
   * 5-minute TimeoutSeconds), its execution log group (with the tenant's retention) and the invoke
   * permission on exactly the step functions.
   */
  private stateMachineOf(
    type: WorkflowType,
    props: InvestigationWorkflowProps,
    telemetry: TelemetryProfile,
    substitutions: Record<string, string>,
  ): { stateMachine: StateMachine; logGroup: LogGroup } {
    const suffix = type === 'express' ? '-express' : '';
    const id = type === 'express' ? 'Express' : '';
    const logGroup = new LogGroup(this, `${id}ExecutionLogs`, {
      // The /aws/vendedlogs/ prefix keeps the log group's resource policy within its size limit.
      logGroupName: `/aws/vendedlogs/states/${tenantResourceName(props.tenant, 'investigation')}${suffix}`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    const stateMachine = new StateMachine(this, `${id}StateMachine`, {
      stateMachineName: `${tenantResourceName(props.tenant, 'investigation')}${suffix}`,
      stateMachineType: type === 'express' ? StateMachineType.EXPRESS : StateMachineType.STANDARD,
      // Standard deploys the file itself (an S3 asset); Express the same states with its own limit.
      definitionBody:
        type === 'standard'
          ? DefinitionBody.fromFile(WORKFLOW_DEFINITION_PATH)
          : DefinitionBody.fromString(definitionTextFor(type)),
      definitionSubstitutions: substitutions,
      // ERROR logs every failure event of a run with its data and nothing of a successful one (ALL
      // wrote ~1.5 KB per history event, ~85 KB per investigation); debugLogging turns ALL back on.
      // For Express these logs are the only execution history there is (no DescribeExecution).
      logs: {
        destination: logGroup,
        level: LogLevel[telemetry.executionLogLevel],
        includeExecutionData: true,
      },
      tracingEnabled: telemetry.traced,
      removalPolicy: props.removalPolicy,
    });
    // A definition from a file names its functions only through substitutions, so CDK cannot
    // infer the invoke permissions: exactly the step functions, unqualified as the ASL calls them
    // (grantInvoke would add every version and alias, `<arn>:*`).
    stateMachine.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [...this.stepFunctions.values()].map((fn) => fn.function.functionArn),
      }),
    );
    if (telemetry.executionLogLevel !== 'ALL') {
      Validations.of(stateMachine).acknowledge({
        id: 'AwsSolutions-SF1',
        reason:
          'Level ERROR logs every failure event of a run with its input and error (what debugging a failed run needs); ALL would add ~85 KB of logs to every successful investigation. The deployment setting debugLogging=true turns ALL on.',
      });
    }
    if (!telemetry.traced) {
      Validations.of(stateMachine).acknowledge({
        id: 'AwsSolutions-SF2',
        reason:
          'The tenant turned tracing off (traceSampleRate=0); failures are still logged with their data and alarmed.',
      });
    }
    Validations.of(stateMachine.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Execution logging to CloudWatch Logs (log delivery APIs) and X-Ray tracing support no resource-level permissions.',
    });
    return { stateMachine, logGroup };
  }

  /** Every function of the workflow by its functions/ folder name (the FUNCTION_GRANTS key). */
  get functions(): [name: string, fn: ServiceFunction][] {
    return [
      ...this.stepFunctions.entries(),
      [STATUS_CHANGE_FUNCTION, this.statusChangeFunction],
      [STALE_SESSION_SWEEP_FUNCTION, this.staleSessionSweepFunction],
    ];
  }
}
