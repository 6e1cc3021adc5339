import {
  DescribeExecutionCommand,
  ExecutionDoesNotExist,
  SFNClient,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import type { Config } from '../config';

/**
 * The investigation workflow engine: AWS Step Functions through @aws-sdk/client-sfn. Locally
 * SIS_SFN_ENDPOINT points the same client at local/step-functions.ts, which speaks the Step
 * Functions wire protocol and runs the same ASL.
 */
export interface WorkflowEngine {
  /** Starts the run named `runId` (the execution name) and returns its execution ARN. */
  start(runId: string, input: { session_id: string }): Promise<string>;
  /** Stops the run; a run that already ended is left as it is. */
  stop(runId: string, cause: string): Promise<void>;
  /** What became of the run, or undefined when no such run exists (it was never started). */
  describe(runId: string): Promise<RunDescription | undefined>;
}

export interface RunDescription {
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE';
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
  const stateMachineArn = cfg.SIS_STATE_MACHINE_ARN;
  const local = cfg.SIS_SFN_ENDPOINT;
  const client = new SFNClient({
    region: cfg.AWS_REGION,
    maxAttempts: 3,
    ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  const machine = () => {
    if (!stateMachineArn) throw new WorkflowNotConfiguredError('SIS_STATE_MACHINE_ARN is not set');
    return stateMachineArn;
  };
  return {
    async start(runId, input) {
      const result = await client.send(
        new StartExecutionCommand({ stateMachineArn: machine(), name: runId, input: JSON.stringify(input) }),
      );
      return result.executionArn ?? executionArnFor(machine(), runId);
    },
    async stop(runId, cause) {
      await client.send(
        new StopExecutionCommand({
          executionArn: executionArnFor(machine(), runId),
          cause: cause.slice(0, 256),
        }),
      );
    },
    async describe(runId) {
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
