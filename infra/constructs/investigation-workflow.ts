import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { WorkflowType } from '../../shared/domain/investigation/workflow-type';
import { type TelemetryProfile, telemetryProfile } from '../telemetry';
import {
  definitionTextFor,
  STALE_SESSION_SWEEP_FUNCTION,
  STALE_SESSION_SWEEP_MINUTES,
  STATUS_CHANGE_FUNCTION,
  WORKFLOW_DEFINITION_PATH,
  WORKFLOW_STEPS,
  WRITE_BACK_STATUSES,
  workflowTimeoutSeconds,
} from '../workflow/definition';
import { type AnalystSettings, analystModelStatements } from './analyst-model-grant';
import { ServiceFunction, type ServiceFunctionDefaults } from './service-function';

const ANALYST_STEPS = new Set(['step-mark-active', 'step-analyst-turn', 'step-assess']);
const ANALYST_PROMPTS_FOLDER = 'shared/domain/analyst/prompts';

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
  readonly stepFunctions = new Map<string, ServiceFunction>();
  /**
   * The steps declared `intelConnectors` (WORKFLOW_STEPS): the one that runs the connector tools
   * (step-run-intel) gets their settings and keys, the one that plans them (step-mark-active) their
   * settings.
   */
  readonly intelConnectorSteps: { fn: ServiceFunction; use: 'plan' | 'run' }[] = [];
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
    const { defaults, tenant } = props;

    const substitutions: Record<string, string> = {};
    for (const step of WORKFLOW_STEPS) {
      const fn = new ServiceFunction(this, pascalCase(step.functionName), {
        defaults,
        name: step.functionName,
        timeoutSeconds: step.timeoutSeconds,
        // The enrichment tools read the offline IP and mail data; no other step carries it.
        offlineData: step.offlineData === true,
        // The analyst mode decides the plan (MarkActive), the turns and the report's analyst section.
        ...(props.analyst && ANALYST_STEPS.has(step.functionName)
          ? { environment: props.analyst.environment }
          : {}),
        // The analyst's versioned prompt files, read at run time beside the bundle.
        ...(step.functionName === 'step-analyst-turn' ? { assetFolders: [ANALYST_PROMPTS_FOLDER] } : {}),
      });
      if (props.analyst && step.functionName === 'step-analyst-turn') {
        const grant = analystModelStatements(this, props.analyst);
        for (const statement of grant.statements) fn.role.addToPolicy(statement);
        if (grant.profileModel) {
          Validations.of(fn.role).acknowledge({
            id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:bedrock:*::foundation-model/${grant.profileModel}]`,
            reason:
              'A cross-region inference profile routes to its model in any of its destination regions; the grant names that one model and is usable only through the configured profile (condition bedrock:InferenceProfileArn).',
          });
        }
      }
      this.stepFunctions.set(step.functionName, fn);
      substitutions[step.substitution] = fn.function.functionArn;
      if (step.intelConnectors) this.intelConnectorSteps.push({ fn, use: step.intelConnectors });
    }
    if (this.intelConnectorSteps.filter((step) => step.use === 'run').length !== 1) {
      throw new Error('Exactly one workflow step must run the intel connectors.');
    }

    const telemetry = defaults.telemetry ?? telemetryProfile();
    const standard = this.stateMachineOf('standard', props, telemetry, substitutions);
    this.stateMachine = standard.stateMachine;
    this.logGroup = standard.logGroup;
    const express = this.stateMachineOf('express', props, telemetry, substitutions);
    this.expressStateMachine = express.stateMachine;
    this.expressLogGroup = express.logGroup;

    this.statusChangeFunction = new ServiceFunction(this, 'StatusChange', {
      defaults,
      name: STATUS_CHANGE_FUNCTION,
      timeoutSeconds: 30,
    });
    this.statusChangeDeadLetterQueue = new Queue(this, 'StatusChangeDeadLetters', {
      queueName: `sis-${tenant}-workflow-status-change-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.statusChangeDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the status-change rule target.',
    });
    this.statusChangeRule = new Rule(this, 'EndedExecutions', {
      description: `Writes failed, timed-out and aborted investigation runs of tenant ${tenant} back to their sessions`,
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...WRITE_BACK_STATUSES],
          stateMachineArn: [this.stateMachine.stateMachineArn],
        },
      },
      targets: [
        new LambdaFunction(this.statusChangeFunction.function, {
          deadLetterQueue: this.statusChangeDeadLetterQueue,
          maxEventAge: Duration.hours(6),
          retryAttempts: 20,
        }),
      ],
    });

    this.staleSessionSweepFunction = new ServiceFunction(this, 'StaleSessionSweep', {
      defaults,
      name: STALE_SESSION_SWEEP_FUNCTION,
      timeoutSeconds: 120,
      // The sweeper's run limit is this definition's own timeout plus a margin.
      environment: { SIS_WORKFLOW_TIMEOUT_SECONDS: String(workflowTimeoutSeconds()) },
    });
    this.staleSessionSweepDeadLetterQueue = new Queue(this, 'StaleSessionSweepDeadLetters', {
      queueName: `sis-${tenant}-stale-session-sweep-dlq`,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.staleSessionSweepDeadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the stale-session sweep schedule.',
    });
    this.staleSessionSweepRule = new Rule(this, 'StaleSessionSweepSchedule', {
      description: `Ends investigation sessions of tenant ${tenant} whose run never started or never reported back`,
      schedule: Schedule.rate(Duration.minutes(STALE_SESSION_SWEEP_MINUTES)),
      targets: [
        // A trigger older than one interval is superseded by the next; nothing needs redriving, but a
        // message in the dead-letter queue (alarmed like every DLQ) says the sweeper could not run.
        new LambdaFunction(this.staleSessionSweepFunction.function, {
          deadLetterQueue: this.staleSessionSweepDeadLetterQueue,
          maxEventAge: Duration.minutes(STALE_SESSION_SWEEP_MINUTES),
          retryAttempts: 2,
        }),
      ],
    });
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
      logGroupName: `/aws/vendedlogs/states/sis-${props.tenant}-investigation${suffix}`,
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    const stateMachine = new StateMachine(this, `${id}StateMachine`, {
      stateMachineName: `sis-${props.tenant}-investigation${suffix}`,
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

function pascalCase(name: string): string {
  return name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
