import type { APIGatewayProxyResult } from 'aws-lambda';
// The error class of mini and classic alike; `z.core.$ZodError` through shared/zod would make esbuild
// keep the whole of zod's core namespace.
import { $ZodError } from 'zod/v4/core';
import {
  DomainError,
  type ErrorDetail,
  ServiceUnavailableError,
  ValidationError,
} from '../domain/core/errors';

export interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: ErrorDetail[] };
}

export function errorBody(
  code: string,
  message: string,
  requestId: string,
  details?: ErrorDetail[],
): ErrorBody {
  return { error: { code, message, request_id: requestId, ...(details?.length ? { details } : {}) } };
}

export const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

export function jsonResponse(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function zodToValidationError(error: $ZodError, location: string): ValidationError {
  const details = error.issues.map((issue) => ({
    path: [location, ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return new ValidationError(`Invalid request. ${summary}`.slice(0, 1000), details);
}

/** AWS SDK failures that mean "the data store is unreachable or overloaded", not "a bug". */
const TRANSIENT_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
]);

function isTransient(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  return TRANSIENT_ERROR_NAMES.has(error.name) || (code !== undefined && TRANSIENT_ERROR_NAMES.has(code));
}

/**
 * The single mapping from any thrown value to a status and the contract's error body. Unknown
 * errors become a generic 500: the message never carries internal names or stack traces.
 */
export function toErrorResult(
  error: unknown,
  requestId: string,
): { status: number; body: ErrorBody; expected: boolean } {
  let mapped: DomainError | undefined;
  if (error instanceof DomainError) mapped = error;
  else if (error instanceof $ZodError) mapped = zodToValidationError(error, 'request');
  else if (isTransient(error)) {
    mapped = new ServiceUnavailableError('The service is temporarily unavailable. Retry shortly.');
  }
  if (mapped) {
    return {
      status: mapped.status,
      body: errorBody(mapped.code, mapped.message, requestId, mapped.details),
      expected: mapped.status < 500,
    };
  }
  return {
    status: 500,
    body: errorBody('internal_error', 'An internal error occurred.', requestId),
    expected: false,
  };
}
