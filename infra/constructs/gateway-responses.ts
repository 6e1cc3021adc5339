import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { SECURITY_HEADERS } from '../../shared/api/security-headers';

/**
 * API Gateway answers some requests itself (no key, denied by the authorizer's policy, throttled,
 * unknown route, too large). Those answers must carry the same error body as the functions' own
 * errors, so a client parses one shape whoever answered.
 */
export interface ContractGatewayResponse {
  type: ResponseType;
  /** Omitted: API Gateway keeps the status it chose (the DEFAULT_* families). */
  statusCode?: string;
  code: string;
  /** A fixed message, or `null` to pass API Gateway's own (already JSON-quoted) message through. */
  message: string | null;
}

export const CONTRACT_GATEWAY_RESPONSES: readonly ContractGatewayResponse[] = [
  {
    type: ResponseType.UNAUTHORIZED,
    statusCode: '401',
    code: 'unauthorized',
    message: 'A valid API key is required (X-API-Key header or Authorization: Bearer).',
  },
  {
    type: ResponseType.ACCESS_DENIED,
    statusCode: '403',
    code: 'forbidden',
    message: "The API key's scopes do not allow this operation.",
  },
  {
    // The authorizer accepted the key but no usage-plan key matches it: a provisioning fault, not the
    // caller's, yet still a refusal.
    type: ResponseType.INVALID_API_KEY,
    statusCode: '403',
    code: 'forbidden',
    message: 'The API key is not enabled for this API.',
  },
  {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    code: 'rate_limited',
    message: 'Too many requests for this API key. Retry later.',
  },
  {
    type: ResponseType.QUOTA_EXCEEDED,
    statusCode: '429',
    code: 'rate_limited',
    message: "The API key's request quota is used up. Retry later.",
  },
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    code: 'payload_too_large',
    message: 'The request body is too large.',
  },
  {
    // API Gateway reports an unknown path or method as a missing token (403); callers see a 404.
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    code: 'not_found',
    message: 'No such route.',
  },
  {
    // The authorizer could not check the key (its table unreachable or throttled): retryable, and
    // never a pass. Without this API Gateway answers 500.
    type: ResponseType.AUTHORIZER_FAILURE,
    statusCode: '503',
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable. Retry shortly.',
  },
  { type: ResponseType.DEFAULT_4XX, code: 'bad_request', message: null },
  {
    type: ResponseType.DEFAULT_5XX,
    code: 'internal_error',
    message: 'An internal error occurred.',
  },
];

export function contractErrorTemplate(code: string, message: string | null): string {
  const quotedMessage = message === null ? '$context.error.messageString' : JSON.stringify(message);
  return `{"error":{"code":${JSON.stringify(code)},"message":${quotedMessage},"request_id":"$context.requestId"}}`;
}

/**
 * Static header values of a gateway response are written between single quotes; API Gateway takes
 * everything between the outer pair, so values with quotes of their own (the CSP's 'none') stay whole.
 */
export function gatewayResponseHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': "'application/json'" };
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) headers[name] = `'${value}'`;
  return headers;
}

export function addContractGatewayResponses(api: RestApi): void {
  const responseHeaders = gatewayResponseHeaders();
  for (const response of CONTRACT_GATEWAY_RESPONSES) {
    api.addGatewayResponse(`GatewayResponse${response.type.responseType}`, {
      type: response.type,
      ...(response.statusCode ? { statusCode: response.statusCode } : {}),
      responseHeaders,
      templates: { 'application/json': contractErrorTemplate(response.code, response.message) },
    });
  }
}
