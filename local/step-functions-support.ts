import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import type { StateMachineDefinition } from 'aws-local-stepfunctions';
import { localLambdaContext } from './lambda-context';

/**
 * The pieces of the local Step Functions (step-functions.ts) that are not the executions
 * themselves: the wire protocol's errors, body reading and answers, how a Task state finds its step
 * function, and how a handler's failure looks to the state machine (as Lambda reports it).
 */

export type LambdaLike = (event: unknown, context: Context) => Promise<unknown>;

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Step Functions' payload limit between states. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
export const MAX_REQUEST_BYTES = 1024 * 1024;

export class ApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export function defaultLoadHandler(functionName: string): Promise<LambdaLike> {
  const url = pathToFileURL(resolve(REPO_ROOT, 'functions', functionName, 'handler.ts')).href;
  return import(url).then((module: { handler: LambdaLike }) => module.handler);
}

export function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  return localLambdaContext(functionName, timeoutSeconds * 1000);
}

/** What Step Functions sees of a Lambda error: Error = errorType, Cause = the runtime's JSON. */
export class LambdaFunctionError extends Error {
  constructor(error: unknown) {
    const errorType = error instanceof Error ? error.name : 'Error';
    const errorMessage = error instanceof Error ? error.message : String(error);
    super(JSON.stringify({ errorType, errorMessage }));
    this.name = errorType;
  }
}

export class DataLimitExceeded extends Error {
  override readonly name = 'States.DataLimitExceeded';
}

/** Task state name → function folder, read from each Task's (local placeholder) Resource ARN. */
export function taskFunctions(definition: StateMachineDefinition, arnToFunction: Map<string, string>) {
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

export function readBody(req: IncomingMessage): Promise<string> {
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

export function send(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(text);
}

export const epochSeconds = (ms: number) => ms / 1000;

/** The first fulfilled value of several deliveries of one Task, else the first delivery's error. */
export function firstSuccess(settled: PromiseSettledResult<unknown>[]): unknown {
  const done = settled.find((r): r is PromiseFulfilledResult<unknown> => r.status === 'fulfilled');
  if (done) return done.value;
  throw (settled[0] as PromiseRejectedResult).reason;
}
