import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { Config } from '../config';
import type { WorkflowType } from '../domain/investigation/workflow-type';

/**
 * The investigation workflow engine: AWS Step Functions through @aws-sdk/client-sfn, two state
 * machines of one definition (Standard: SIS_STATE_MACHINE_ARN, Express:
 * SIS_EXPRESS_STATE_MACHINE_ARN). Locally SIS_SFN_ENDPOINT points the same client at
 * local/step-functions.ts, which speaks the Step Functions wire protocol and runs the same ASL.
 *
 * Step Functions keeps no record of an Express execution that its API could stop or describe
 * (StopExecution and DescribeExecution are Standard only): stopping one is a no-op here (its steps
 * find the session ended and write nothing) and describing one answers `untracked`.
 */
export interface WorkflowEngine {
  /** Starts the run named `runId` (the execution name) on that type's state machine; its execution ARN. */
  start(runId: string, input: { session_id: string }, type?: WorkflowType): Promise<string>;
  /** Stops the run; a run that already ended (or an Express run) is left as it is. */
  stop(runId: string, cause: string, type?: WorkflowType): Promise<void>;
  /**
   * What became of the run: undefined when no such run exists (it was never started), `untracked`
   * for an Express run.
   */
  describe(runId: string, type?: WorkflowType): Promise<RunDescription | undefined>;
}

export interface RunDescription {
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE' | 'untracked';
  startedAt?: Date;
  stoppedAt?: Date;
}

export class WorkflowNotConfiguredError extends Error {
  override readonly name = 'WorkflowNotConfiguredError';
}

/** `arn:…:stateMachine:<name>` → `arn:…:execution:<name>:<runId>`, as Step Functions names executions. */
export function executionArnFor(stateMachineArn: string, runId: string): string {
  return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${runId}`;
}

export function stepFunctionsEngine(cfg: Config): WorkflowEngine {
  const local = cfg.SIS_SFN_ENDPOINT;
  const client = new SFNClient({
    region: cfg.AWS_REGION,
    maxAttempts: 3,
    ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const machine = (type: WorkflowType = 'standard') => {
    const arn = type === 'express' ? cfg.SIS_EXPRESS_STATE_MACHINE_ARN : cfg.SIS_STATE_MACHINE_ARN;
    if (!arn) {
      throw new WorkflowNotConfiguredError(
        `${type === 'express' ? 'SIS_EXPRESS_STATE_MACHINE_ARN' : 'SIS_STATE_MACHINE_ARN'} is not set`,
      );
    }
    return arn;
  };
  return {
    async start(runId, input, type = 'standard') {
      const stateMachineArn = machine(type);
      const result = await client.send(
        new StartExecutionCommand({ stateMachineArn, name: runId, input: JSON.stringify(input) }),
      );
      return result.executionArn ?? executionArnFor(stateMachineArn, runId);
    },
    async stop(runId, cause, type = 'standard') {
      if (type === 'express') return;
      await client.send(
        new StopExecutionCommand({
          executionArn: executionArnFor(machine(), runId),
          cause: cause.slice(0, 256),
        }),
      );
    },
    async describe(runId, type = 'standard') {
      if (type === 'express') return { status: 'untracked' };
      try {
        const run = await client.send(
          new DescribeExecutionCommand({ executionArn: executionArnFor(machine(), runId) }),
        );
        return {
          status: run.status ?? 'RUNNING',
          ...(run.startDate ? { startedAt: run.startDate } : {}),
          ...(run.stopDate ? { stoppedAt: run.stopDate } : {}),
        };
      } catch (error) {
        if (error instanceof ExecutionDoesNotExist) return undefined;
        throw error;
      }
    },
  };
}
