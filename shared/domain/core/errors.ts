/**
 * Typed domain errors. The HTTP layer maps each to one status and one stable `code`; anything else
 * becomes a generic 500 so no internal detail leaks.
 */
export type ErrorDetail = { path: string; message: string };

export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly details: ErrorDetail[] | undefined;

  constructor(message: string, details?: ErrorDetail[]) {
    super(message);
    this.details = details;
  }
}

export class ValidationError extends DomainError {
  readonly status = 400;
  readonly code = 'validation_error';
}

export class InvalidCursorError extends DomainError {
  readonly status = 400;
  readonly code = 'invalid_cursor';
  constructor(message = 'The cursor is malformed, expired or belongs to another query.') {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly status = 401;
  readonly code = 'unauthorized';
}

export class ForbiddenError extends DomainError {
  readonly status = 403;
  readonly code = 'forbidden';
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'not_found';
}

export class MethodNotAllowedError extends DomainError {
  readonly status = 405;
  readonly code = 'method_not_allowed';
}

export class ConflictError extends DomainError {
  readonly status = 409;
  readonly code = 'conflict';
}

export class PayloadTooLargeError extends DomainError {
  readonly status = 413;
  readonly code = 'payload_too_large';
}

export class UnsupportedMediaTypeError extends DomainError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
}

export class RateLimitedError extends DomainError {
  readonly status = 429;
  readonly code = 'rate_limited';
}

export class ServiceUnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'service_unavailable';
}

/**
 * A tool deliberately not run (TLP above a source's maximum, an internal indicator, quota spent,
 * an open circuit); the engine records it as a `skipped` tool call with this message as the reason.
 */
export class ToolSkippedError extends DomainError {
  readonly status = 422;
  readonly code = 'tool_skipped';
}

/** An outside source did not answer usably; the message is safe to show (no key, no body). */
export class SourceUnavailableError extends DomainError {
  readonly status = 502;
  readonly code = 'source_unavailable';
}
