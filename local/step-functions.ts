import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ExecutionAbortedError,
  ExecutionTimeoutError,
  StateMachine,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import pLimit from 'p-limit';
import {
  definitionTextFor,
  readWorkflowDefinitionText,
  STATUS_CHANGE_FUNCTION,
  substituteDefinition,
  WORKFLOW_STEPS,
  WRITE_BACK_STATUSES,
  type WriteBackStatus,
} from '../infra/workflow/definition';
import type { WorkflowType } from '../shared/domain/investigation/workflow-type';
import {
  ApiError,
  DataLimitExceeded,
  defaultLoadHandler,
  epochSeconds,
  firstSuccess,
  LambdaFunctionError,
  type LambdaLike,
  lambdaContext,
  MAX_PAYLOAD_BYTES,
  readBody,
  send,
  taskFunctions,
} from './step-functions-support';

export type { LambdaLike };

/**
 * A local stand-in for AWS Step Functions, reached by the real @aws-sdk/client-sfn over its own wire
 * protocol (AWS JSON 1.0: POST / with `X-Amz-Target: AWSStepFunctions.<Operation>`), so the start and
 * cancel handlers run unchanged with `SIS_SFN_ENDPOINT` pointing here. It serves the two state
 * machines the stack deploys from the one investigation ASL (definitionTextFor), each run by
 * aws-local-stepfunctions with every Task state mapped to the real step handler module (the function
 * named by the Task's `${...}` placeholder):
 *
 * - Standard: StartExecution (idempotent per name and input), StopExecution, DescribeExecution; when
 *   an execution ends FAILED, TIMED_OUT or ABORTED it invokes the workflow-status-change handler with
 *   the EventBridge event AWS would deliver, exactly what the stack's rule does.
 * - Express: StartExecution only, as on AWS (Stop and Describe answer InvalidArn), names may repeat,
 *   and no status-change event: what an Express run leaves is what its own states wrote. The
 *   `atLeastOnce` option delivers its executions and steps more than once (tests of the idempotency
 *   Express demands).
 *
 * stop() behaves like the process dying: running executions (and those waiting for one of the
 * bounded slots, maxRunningExecutions) are abandoned without any status-change event, so a restart
 * finds their sessions still open (and the local runtime marks them failed).
 */

export interface LocalStepFunctionsOptions {
  /** Loads a handler by its functions/ folder name; defaults to importing functions/<name>/handler.ts. */
  loadHandler?: (functionName: string) => Promise<LambdaLike>;
  region?: string;
  accountId?: string;
  stateMachineName?: string;
  /** Pause before a Retry attempt, in ms; default: the definition's own intervals. */
  retryIntervalMs?: number;
  /** Called when a step or status-change handler throws; the workflow's own handling still applies. */
  onError?: (error: unknown, info: { functionName: string; executionArn: string }) => void;
  /**
   * Express's at-least-once delivery, made certain (test seam): every StartExecution on the Express
   * state machine runs `executions` executions of it, and every Task of an Express execution invokes
   * its function `steps` times, all at once (`concurrent`, the default) or one after the other
   * (`sequential`: a redelivery after the first finished); the first success is the Task's result.
   */
  atLeastOnce?: { executions?: number; steps?: number; mode?: 'concurrent' | 'sequential' };
  /**
   * At most this many executions run at once (default DEFAULT_RUNNING_EXECUTIONS); the others wait
   * their turn in start order, RUNNING to the API as on AWS, whose executions run elsewhere and never
   * hold up StartExecution. Here they share the caller's event loop: unbounded, a batch of 100 starts
   * ran 100 executions beside the gateway, and its answer waited on their steps.
   */
  maxRunningExecutions?: number;
}

/**
 * Measured with a batch of 100 on a quiet machine (docs/soar.md): 2 and 4 running executions end the
 * 100 runs as fast as unbounded (about 11 s against 16 s), and answer the batch in 1.4–3.6 s against
 * 10–12 s; 4 keeps room for the fault tests' slow (delayed) runs side by side.
 */
export const DEFAULT_RUNNING_EXECUTIONS = 4;

export interface LocalStepFunctions {
  endpoint: string;
  /** The Standard state machine (SIS_STATE_MACHINE_ARN). */
  stateMachineArn: string;
  /** The Express state machine of the same definition (SIS_EXPRESS_STATE_MACHINE_ARN). */
  expressStateMachineArn: string;
  /**
   * Abandons the running executions named `name` as if their host died mid-step: no state after the
   * current one runs and nothing is reported (test seam for an Express execution that dies). The
   * number abandoned.
   */
  abandon(name: string): number;
  /** Abandons running executions (as a crash would) and closes the endpoint. */
  stop(): Promise<void>;
  /** Resolves once no execution, step handler or status-change delivery is in flight. */
  idle(): Promise<void>;
}

type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface Execution {
  type: WorkflowType;
  executionArn: string;
  name: string;
  input: string;
  status: ExecutionStatus;
  startDate: number;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  abort?: () => void;
}

const EXECUTION_NAME = /^[A-Za-z0-9_-]{1,80}$/;
const KEPT_CLOSED_EXECUTIONS = 1000;

export async function startLocalStepFunctions(
  options: LocalStepFunctionsOptions = {},
): Promise<LocalStepFunctions> {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const machineName = options.stateMachineName ?? 'sis-local-investigation';
  const expressName = `${machineName}-express`;
  const stateMachineArn = `arn:aws:states:${region}:${accountId}:stateMachine:${machineName}`;
  const expressStateMachineArn = `arn:aws:states:${region}:${accountId}:stateMachine:${expressName}`;
  const loadHandler = options.loadHandler ?? defaultLoadHandler;

  const arnToFunction = new Map<string, string>();
  const substitutions: Record<string, string> = {};
  for (const step of WORKFLOW_STEPS) {
    const arn = `arn:aws:lambda:${region}:${accountId}:function:${step.functionName}`;
    substitutions[step.substitution] = arn;
    arnToFunction.set(arn, step.functionName);
  }
  const definitionText = readWorkflowDefinitionText();
  const machineOf = (type: WorkflowType) => {
    const definition = substituteDefinition(
      definitionTextFor(type, definitionText),
      substitutions,
    ) as StateMachineDefinition;
    // The constructor validates the definition (asl-validator): an invalid ASL fails the start-up.
    return { definition, machine: new StateMachine(definition) };
  };
  const machines: Record<WorkflowType, ReturnType<typeof machineOf> & { arn: string; name: string }> = {
    standard: { ...machineOf('standard'), arn: stateMachineArn, name: machineName },
    express: { ...machineOf('express'), arn: expressStateMachineArn, name: expressName },
  };
  const stateFunctions = taskFunctions(machines.standard.definition, arnToFunction);
  const timeouts = new Map(WORKFLOW_STEPS.map((s) => [s.functionName, s.timeoutSeconds]));
  // Read at each use: a test may change the delivery counts between runs.
  const duplicates = {
    get executions() {
      return Math.max(1, options.atLeastOnce?.executions ?? 1);
    },
    get steps() {
      return Math.max(1, options.atLeastOnce?.steps ?? 1);
    },
    get sequential() {
      return options.atLeastOnce?.mode === 'sequential';
    },
  };

  const executions = new Map<string, Execution>();
  const slots = pLimit(Math.max(1, options.maxRunningExecutions ?? DEFAULT_RUNNING_EXECUTIONS));
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;

  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    const forget = () => inFlight.delete(promise);
    promise.then(forget, forget);
    return promise;
  };

  const invoke = async (functionName: string, event: unknown, executionArn: string): Promise<unknown> => {
    const handler = await loadHandler(functionName);
    // Lambda sees a JSON copy of its event and returns JSON, never shared objects.
    const payload = JSON.parse(JSON.stringify(event ?? null));
    try {
      const result = await handler(payload, lambdaContext(functionName, timeouts.get(functionName) ?? 60));
      return result === undefined ? null : JSON.parse(JSON.stringify(result));
    } catch (error) {
      options.onError?.(error, { functionName, executionArn });
      throw new LambdaFunctionError(error);
    }
  };

  /** Invokes a Task's function `times` times (Express redelivery); the first success is the result. */
  const deliver = async (times: number, once: () => Promise<unknown>): Promise<unknown> => {
    if (times === 1) return once();
    if (duplicates.sequential) {
      const settled: PromiseSettledResult<unknown>[] = [];
      for (let i = 0; i < times; i++) settled.push(...(await Promise.allSettled([once()])));
      return firstSuccess(settled);
    }
    return firstSuccess(await Promise.allSettled(Array.from({ length: times }, once)));
  };

  const taskHandlers = (execution: Execution) =>
    Object.fromEntries(
      [...stateFunctions].map(([stateName, functionName]) => [
        stateName,
        async (input: unknown) => {
          const times = execution.type === 'express' ? duplicates.steps : 1;
          const output = await deliver(times, () =>
            track(invoke(functionName, input, execution.executionArn)),
          );
          if (Buffer.byteLength(JSON.stringify(output)) > MAX_PAYLOAD_BYTES) {
            throw new DataLimitExceeded(`The output of ${stateName} exceeds ${MAX_PAYLOAD_BYTES} bytes`);
          }
          return output as never;
        },
      ]),
    );

  const retryOverrides = () => {
    if (options.retryIntervalMs === undefined) return undefined;
    return Object.fromEntries([...stateFunctions.keys()].map((name) => [name, options.retryIntervalMs!]));
  };

  const deliverStatusChange = async (execution: Execution, status: WriteBackStatus) => {
    const event = {
      version: '0',
      id: randomUUID(),
      'detail-type': 'Step Functions Execution Status Change',
      source: 'aws.states',
      account: accountId,
      time: new Date(execution.stopDate ?? Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      region,
      resources: [execution.executionArn],
      detail: {
        executionArn: execution.executionArn,
        stateMachineArn: machines[execution.type].arn,
        name: execution.name,
        status,
        startDate: execution.startDate,
        stopDate: execution.stopDate ?? null,
        input: execution.input,
        output: null,
        inputDetails: { included: true },
        outputDetails: null,
        error: execution.error ?? null,
        cause: execution.cause ?? null,
      },
    };
    // EventBridge → Lambda is an asynchronous invocation, which Lambda retries twice.
    for (let attempt = 1; attempt <= 3 && !stopping; attempt++) {
      try {
        await invoke(STATUS_CHANGE_FUNCTION, event, execution.executionArn);
        return;
      } catch {
        await new Promise((wake) => setTimeout(wake, 100 * attempt));
      }
    }
  };

  const finish = (execution: Execution, status: ExecutionStatus, fields: Partial<Execution>) => {
    Object.assign(execution, { status, stopDate: Date.now(), abort: undefined }, fields);
    if (stopping) return;
    // Express executions emit no status-change events (on AWS too): their own states wrote the outcome.
    if (execution.type === 'standard' && (WRITE_BACK_STATUSES as readonly string[]).includes(status)) {
      void track(deliverStatusChange(execution, status as WriteBackStatus));
    }
    const closed = [...executions.values()].filter((e) => e.status !== 'RUNNING');
    for (const old of closed.slice(0, Math.max(0, closed.length - KEPT_CLOSED_EXECUTIONS))) {
      executions.delete(old.executionArn);
    }
  };

  const startExecution = (request: { stateMachineArn?: string; name?: string; input?: string }) => {
    const type = (Object.keys(machines) as WorkflowType[]).find(
      (key) => machines[key].arn === request.stateMachineArn,
    );
    if (!type) {
      throw new ApiError(
        'StateMachineDoesNotExist',
        `State Machine Does Not Exist: '${request.stateMachineArn}'`,
      );
    }
    const name = request.name ?? randomUUID();
    if (!EXECUTION_NAME.test(name)) throw new ApiError('InvalidName', `Invalid Name: '${name}'`);
    const inputText = request.input ?? '{}';
    let input: unknown;
    try {
      input = JSON.parse(inputText);
    } catch {
      throw new ApiError('InvalidExecutionInput', 'Invalid State Machine Execution Input: not JSON');
    }
    if (type === 'express') {
      // Express: no uniqueness check on the name, an ARN of its own per execution, and with
      // `atLeastOnce` the same execution started more than once.
      const arns = Array.from({ length: duplicates.executions }, () =>
        launch('express', name, inputText, input),
      );
      return { executionArn: arns[0], startDate: epochSeconds(Date.now()) };
    }
    const executionArn = `arn:aws:states:${region}:${accountId}:execution:${machineName}:${name}`;
    const existing = executions.get(executionArn);
    if (existing) {
      // Standard workflows: the same name and input while running is an idempotent retry.
      if (existing.status === 'RUNNING' && existing.input === inputText) {
        return { executionArn, startDate: epochSeconds(existing.startDate) };
      }
      throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    launch('standard', name, inputText, input, executionArn);
    return { executionArn, startDate: epochSeconds(Date.now()) };
  };

  const launch = (
    type: WorkflowType,
    name: string,
    inputText: string,
    input: unknown,
    arn = `arn:aws:states:${region}:${accountId}:express:${expressName}:${name}:${randomUUID()}`,
  ): string => {
    const execution: Execution = {
      type,
      executionArn: arn,
      name,
      input: inputText,
      status: 'RUNNING',
      startDate: Date.now(),
    };
    executions.set(arn, execution);
    // StartExecution answers now; the execution waits for a slot (stopped meanwhile: never runs).
    void track(slots(() => (execution.status === 'RUNNING' ? run(execution, input) : undefined)));
    return arn;
  };

  const run = async (execution: Execution, input: unknown): Promise<void> => {
    const { executionArn: arn, name } = execution;
    const target = machines[execution.type];
    const interpreted = target.machine.run(input as never, {
      overrides: {
        taskResourceLocalHandlers: taskHandlers(execution),
        ...(retryOverrides() ? { retryIntervalOverrides: retryOverrides() } : {}),
      },
      context: {
        Execution: { Id: arn, Name: name },
        StateMachine: { Id: target.arn, Name: target.name },
      },
    });
    execution.abort = interpreted.abort;
    await interpreted.result.then(
      (output) => {
        if (execution.status === 'RUNNING')
          finish(execution, 'SUCCEEDED', { output: JSON.stringify(output) });
      },
      (error: unknown) => {
        if (execution.status !== 'RUNNING') return; // stopped: already recorded
        if (error instanceof ExecutionAbortedError) return finish(execution, 'ABORTED', {});
        if (error instanceof ExecutionTimeoutError) {
          return finish(execution, 'TIMED_OUT', { error: 'States.Timeout', cause: 'Execution timed out' });
        }
        const cause = (error as { cause?: unknown }).cause;
        return finish(execution, 'FAILED', {
          error: cause instanceof Error ? cause.name : 'States.Runtime',
          cause: cause instanceof Error ? cause.message : String(error),
        });
      },
    );
  };

  const lookup = (executionArn: string | undefined): Execution => {
    if (executionArn?.includes(':express:')) {
      throw new ApiError(
        'InvalidArn',
        `This operation is not supported by EXPRESS state machines: '${executionArn}'`,
      );
    }
    const execution = executionArn ? executions.get(executionArn) : undefined;
    if (!execution)
      throw new ApiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${executionArn}'`);
    return execution;
  };

  const stopExecution = (request: { executionArn?: string; error?: string; cause?: string }) => {
    const execution = lookup(request.executionArn);
    if (execution.status === 'RUNNING') {
      const abort = execution.abort;
      finish(execution, 'ABORTED', { error: request.error, cause: request.cause });
      abort?.();
    }
    return { stopDate: epochSeconds(execution.stopDate ?? Date.now()) };
  };

  const describeExecution = (request: { executionArn?: string }) => {
    const e = lookup(request.executionArn);
    return {
      executionArn: e.executionArn,
      stateMachineArn: machines[e.type].arn,
      name: e.name,
      status: e.status,
      startDate: epochSeconds(e.startDate),
      ...(e.stopDate !== undefined ? { stopDate: epochSeconds(e.stopDate) } : {}),
      input: e.input,
      inputDetails: { included: true },
      ...(e.output !== undefined ? { output: e.output, outputDetails: { included: true } } : {}),
      ...(e.error !== undefined ? { error: e.error } : {}),
      ...(e.cause !== undefined ? { cause: e.cause } : {}),
    };
  };

  const operations: Record<string, (request: never) => unknown> = {
    StartExecution: startExecution,
    StopExecution: stopExecution,
    DescribeExecution: describeExecution,
  };

  const server: Server = createServer((req, res) => {
    (async () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const operation = operations[target.replace(/^AWSStepFunctions\./, '')];
      if (req.method !== 'POST' || !target.startsWith('AWSStepFunctions.') || !operation) {
        throw new ApiError('UnknownOperationException', `Operation not supported locally: ${target}`);
      }
      const body = await readBody(req);
      let request: unknown;
      try {
        request = body ? JSON.parse(body) : {};
      } catch {
        throw new ApiError('SerializationException', 'Request body is not JSON');
      }
      send(res, 200, operation(request as never));
    })().catch((error: unknown) => {
      const apiError =
        error instanceof ApiError ? error : new ApiError('InternalFailure', 'Internal failure', 500);
      send(res, apiError.status, { __type: apiError.type, message: apiError.message }, apiError.type);
    });
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };

  const abandon = (name: string): number => {
    let abandoned = 0;
    for (const execution of executions.values()) {
      if (execution.name !== name || execution.status !== 'RUNNING') continue;
      const abort = execution.abort;
      // Gone without a trace: no status-change event, whatever its type.
      Object.assign(execution, { status: 'ABORTED', stopDate: Date.now(), abort: undefined });
      abort?.();
      abandoned++;
    }
    return abandoned;
  };

  const stop = async () => {
    stopping = true;
    for (const execution of executions.values()) {
      if (execution.status === 'RUNNING') {
        const abort = execution.abort;
        Object.assign(execution, { status: 'ABORTED', stopDate: Date.now(), abort: undefined });
        abort?.();
      }
    }
    // Step handlers already running finish their current call (a killed process would cut them
    // short; letting them end keeps a test's DynamoDB writes out of the next runtime's way).
    await Promise.race([idle(), new Promise((wake) => setTimeout(wake, 10_000))]);
    await new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
  };

  return { endpoint, stateMachineArn, expressStateMachineArn, abandon, stop, idle };
}
