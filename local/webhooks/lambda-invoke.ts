import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localLambdaContext } from '../lambda-context';
import { readBody } from '../step-functions-support';

/**
 * The local runtime's Lambda Invoke endpoint: the one operation of the Lambda REST-JSON API the service
 * calls, `POST /2015-03-31/functions/{FunctionName}/invocations`, on 127.0.0.1, so the real
 * `@aws-sdk/client-lambda` reaches it with `endpoint: SIS_LAMBDA_ENDPOINT` as it reaches Lambda.
 * `X-Amz-Invocation-Type: Event` answers 202 at once and runs the REAL handler after the answer, as
 * Lambda's asynchronous invocation does (a throw is retried up to `retries` times, then reported to
 * `onFailure`, Lambda's on-failure destination); `RequestResponse` (the default) runs it and answers
 * 200 with its result. The function name may be a name or an ARN; unknown ones get Lambda's 404.
 */
export type LocalFunction = (
  event: unknown,
  context: ReturnType<typeof localLambdaContext>,
) => Promise<unknown>;

export interface LocalLambdaOptions {
  functions: Record<string, () => Promise<LocalFunction>>;
  /** Lambda retries a failed asynchronous invocation twice. */
  retries?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  onFailure?: (failure: { functionName: string; event: unknown; error: unknown }) => void;
}

export interface LocalLambda {
  endpoint: string;
  /** Runs an asynchronous invocation as Invoke with InvocationType Event does (the local scheduler's target). */
  invokeAsync(functionName: string, event: unknown): void;
  /** Resolves once no asynchronous invocation is running or waiting for a retry. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** `my-fn`, `arn:aws:lambda:region:account:function:my-fn` or `…:my-fn:qualifier` → `my-fn`. */
export function functionNameOf(nameOrArn: string): string {
  const match = /^arn:[^:]+:lambda:[^:]*:[^:]*:function:([^:]+)/.exec(nameOrArn);
  return match?.[1] ?? nameOrArn;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

export async function startLocalLambda(options: LocalLambdaOptions): Promise<LocalLambda> {
  const retries = options.retries ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const running = new Set<Promise<void>>();
  const loaded = new Map<string, Promise<LocalFunction>>();
  let stopped = false;

  const handlerOf = (functionName: string) => {
    const load = options.functions[functionName];
    if (!load) return undefined;
    let handler = loaded.get(functionName);
    if (!handler) {
      handler = load();
      loaded.set(functionName, handler);
    }
    return handler;
  };
  const run = async (functionName: string, event: unknown) => {
    const handler = handlerOf(functionName);
    if (!handler) throw new Error(`Function not found: ${functionName}`);
    return (await handler)(event, localLambdaContext(functionName, timeoutMs));
  };
  const invokeAsync = (nameOrArn: string, event: unknown) => {
    const functionName = functionNameOf(nameOrArn);
    const attempt = async () => {
      for (let tried = 0; ; tried++) {
        try {
          await run(functionName, event);
          return;
        } catch (error) {
          if (tried >= retries || stopped) return options.onFailure?.({ functionName, event, error });
          await new Promise((wake) => setTimeout(wake, options.retryDelayMs ?? 1000));
        }
      }
    };
    const job = attempt().finally(() => running.delete(job));
    running.add(job);
  };

  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? '' : JSON.stringify(body));
    };
    const match = req.method === 'POST' ? INVOKE_PATH.exec(req.url?.split('?')[0] ?? '') : null;
    if (!match)
      return answer(
        404,
        { message: 'Unknown operation' },
        { 'x-amzn-errortype': 'UnknownOperationException' },
      );
    const functionName = functionNameOf(decodeURIComponent(match[1] ?? ''));
    readBody(req)
      .then(async (text) => {
        let event: unknown;
        try {
          event = text ? JSON.parse(text) : {};
        } catch {
          return answer(
            400,
            { message: 'Could not parse request body into json' },
            {
              'x-amzn-errortype': 'InvalidRequestContentException',
            },
          );
        }
        if (!options.functions[functionName]) {
          return answer(
            404,
            { message: `Function not found: ${functionName}` },
            {
              'x-amzn-errortype': 'ResourceNotFoundException',
            },
          );
        }
        if (req.headers['x-amz-invocation-type'] === 'Event') {
          answer(202, undefined);
          return invokeAsync(functionName, event);
        }
        try {
          answer(200, (await run(functionName, event)) ?? null, { 'x-amz-executed-version': '$LATEST' });
        } catch (error) {
          answer(
            200,
            { errorMessage: (error as Error).message, errorType: (error as Error).name },
            {
              'x-amz-function-error': 'Unhandled',
            },
          );
        }
      })
      .catch(() =>
        answer(500, { message: 'local Lambda failure' }, { 'x-amzn-errortype': 'ServiceException' }),
      );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;

  const idle = async () => {
    while (running.size) await Promise.allSettled([...running]);
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    invokeAsync,
    idle,
    stop: async () => {
      stopped = true;
      await idle();
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}
