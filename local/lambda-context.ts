import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';

/** The Lambda context the local runtime hands to a real handler; the deadline is the function's timeout. */
export function localLambdaContext(functionName: string, timeoutMs: number, requestId?: string): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId ?? randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
