import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import {
  ExecutionAbortedError,
  ExecutionTimeoutError,
  StateMachine,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import {
  readWorkflowDefinitionText,
  STATUS_CHANGE_FUNCTION,
  substituteDefinition,
  WORKFLOW_STEPS,
  WRITE_BACK_STATUSES,
  type WriteBackStatus,
} from '../infra/workflow/definition';
import { localLambdaContext } from './lambda-context';

/**
 * A local stand-in for AWS Step Functions, reached by the real @aws-sdk/client-sfn over its own wire
 * protocol (AWS JSON 1.0: POST / with `X-Amz-Target: AWSStepFunctions.<Operation>`), so the start and
 * cancel handlers run unchanged with `SIS_SFN_ENDPOINT` pointing here. It serves StartExecution,
 * StopExecution and DescribeExecution for one state machine: the investigation ASL, run by
 * aws-local-stepfunctions with every Task state mapped to the real step handler module (the function
 * named by the Task's `${...}` placeholder). When an execution ends FAILED, TIMED_OUT or ABORTED it
 * invokes the workflow-status-change handler with the EventBridge event AWS would deliver, exactly
 * what the stack's rule does.
 *
 * stop() behaves like the process dying: running executions are abandoned without any status-change
 * event, so a restart finds their sessions still open (and the local runtime marks them failed).
 */
export type LambdaLike = (event: unknown, context: Context) => Promise<unknown>;

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
}

export interface LocalStepFunctions {
  endpoint: string;
  stateMachineArn: string;
  /** Abandons running executions (as a crash would) and closes the endpoint. */
  stop(): Promise<void>;
  /** Resolves once no execution, step handler or status-change delivery is in flight. */
  idle(): Promise<void>;
}

type ExecutionStatus = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface Execution {
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

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Step Functions' payload limit between states. */
const MAX_PAYLOAD_BYTES = 256 * 1024;
const MAX_REQUEST_BYTES = 1024 * 1024;
const EXECUTION_NAME = /^[A-Za-z0-9_-]{1,80}$/;
const KEPT_CLOSED_EXECUTIONS = 1000;

class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

function defaultLoadHandler(functionName: string): Promise<LambdaLike> {
  const url = pathToFileURL(resolve(REPO_ROOT, 'functions', functionName, 'handler.ts')).href;
  return import(url).then((module: { handler: LambdaLike }) => module.handler);
}

function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  return localLambdaContext(functionName, timeoutSeconds * 1000);
}

/** What Step Functions sees of a Lambda error: Error = errorType, Cause = the runtime's JSON. */
class LambdaFunctionError extends Error {
  constructor(error: unknown) {
    const errorType = error instanceof Error ? error.name : 'Error';
    const errorMessage = error instanceof Error ? error.message : String(error);
    super(JSON.stringify({ errorType, errorMessage }));
    this.name = errorType;
  }
}

class DataLimitExceeded extends Error {
  override readonly name = 'States.DataLimitExceeded';
}

/** Task state name → function folder, read from each Task's (local placeholder) Resource ARN. */
function taskFunctions(definition: StateMachineDefinition, arnToFunction: Map<string, string>) {
  const byState = new Map<string, string>();
  const visit = (states: StateMachineDefinition['States']) => {
    for (const [name, state] of Object.entries(states)) {
      if (state.Type === 'Task') {
        const functionName = arnToFunction.get(state.Resource);
        if (!functionName) throw new Error(`Task state ${name} names no known step function`);
        const existing = byState.get(name);
        if (existing && existing !== functionName) throw new Error(`Task state name ${name} is not unique`);
        byState.set(name, functionName);
      }
      if (state.Type === 'Map') {
        const processor = state.ItemProcessor ?? state.Iterator;
        if (processor) visit(processor.States);
      }
      if (state.Type === 'Parallel') for (const branch of state.Branches) visit(branch.States);
    }
  };
  visit(definition.States);
  return byState;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        fail(new ApiError('ValidationException', 'Request too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

function send(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(text);
}

const epochSeconds = (ms: number) => ms / 1000;

export async function startLocalStepFunctions(
  options: LocalStepFunctionsOptions = {},
): Promise<LocalStepFunctions> {
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const machineName = options.stateMachineName ?? 'sis-local-investigation';
  const stateMachineArn = `arn:aws:states:${region}:${accountId}:stateMachine:${machineName}`;
  const loadHandler = options.loadHandler ?? defaultLoadHandler;

  const arnToFunction = new Map<string, string>();
  const substitutions: Record<string, string> = {};
  for (const step of WORKFLOW_STEPS) {
    const arn = `arn:aws:lambda:${region}:${accountId}:function:${step.functionName}`;
    substitutions[step.substitution] = arn;
    arnToFunction.set(arn, step.functionName);
  }
  const definition = substituteDefinition(
    readWorkflowDefinitionText(),
    substitutions,
  ) as StateMachineDefinition;
  // The constructor validates the definition (asl-validator): an invalid ASL fails the start-up.
  const machine = new StateMachine(definition);
  const stateFunctions = taskFunctions(definition, arnToFunction);
  const timeouts = new Map(WORKFLOW_STEPS.map((s) => [s.functionName, s.timeoutSeconds]));

  const executions = new Map<string, Execution>();
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

  const taskHandlers = (executionArn: string) =>
    Object.fromEntries(
      [...stateFunctions].map(([stateName, functionName]) => [
        stateName,
        async (input: unknown) => {
          const output = await track(invoke(functionName, input, executionArn));
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
        stateMachineArn,
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
    if ((WRITE_BACK_STATUSES as readonly string[]).includes(status)) {
      void track(deliverStatusChange(execution, status as WriteBackStatus));
    }
    const closed = [...executions.values()].filter((e) => e.status !== 'RUNNING');
    for (const old of closed.slice(0, Math.max(0, closed.length - KEPT_CLOSED_EXECUTIONS))) {
      executions.delete(old.executionArn);
    }
  };

  const startExecution = (request: { stateMachineArn?: string; name?: string; input?: string }) => {
    if (request.stateMachineArn !== stateMachineArn) {
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
    const executionArn = `arn:aws:states:${region}:${accountId}:execution:${machineName}:${name}`;
    const existing = executions.get(executionArn);
    if (existing) {
      // Standard workflows: the same name and input while running is an idempotent retry.
      if (existing.status === 'RUNNING' && existing.input === inputText) {
        return { executionArn, startDate: epochSeconds(existing.startDate) };
      }
      throw new ApiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    const execution: Execution = {
      executionArn,
      name,
      input: inputText,
      status: 'RUNNING',
      startDate: Date.now(),
    };
    executions.set(executionArn, execution);
    const run = machine.run(input as never, {
      overrides: {
        taskResourceLocalHandlers: taskHandlers(executionArn),
        ...(retryOverrides() ? { retryIntervalOverrides: retryOverrides() } : {}),
      },
      context: {
        Execution: { Id: executionArn, Name: name },
        StateMachine: { Id: stateMachineArn, Name: machineName },
      },
    });
    execution.abort = run.abort;
    void track(
      run.result.then(
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
      ),
    );
    return { executionArn, startDate: epochSeconds(execution.startDate) };
  };

  const lookup = (executionArn: string | undefined): Execution => {
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
      stateMachineArn,
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

  return { endpoint, stateMachineArn, stop, idle };
}
