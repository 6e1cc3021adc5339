import httpSecurityHeaders from '@middy/http-security-headers';

/**
 * The security headers every answer carries (X-Content-Type-Options: nosniff, HSTS, CSP, frame and
 * referrer policies, ...). They are exactly what the handlers' middy `http-security-headers`
 * middleware adds with its defaults: computed once from that middleware, so the answers the gateways
 * give themselves (401, 403, 404, 413, 429, malformed requests, 5xx; the local gateway and the
 * stack's gateway responses) cannot drift from the handlers' own.
 */
function middlewareHeaders(): Readonly<Record<string, string>> {
  const request = { response: { statusCode: 200, headers: {} as Record<string, string>, body: '' } };
  const middleware = httpSecurityHeaders() as unknown as { after: (r: typeof request) => void };
  middleware.after(request);
  return Object.freeze({ ...request.response.headers });
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = middlewareHeaders();
