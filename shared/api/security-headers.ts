import httpSecurityHeaders from '@middy/http-security-headers';

type MiddyOptions = NonNullable<Parameters<typeof httpSecurityHeaders>[0]>;
export type SecurityHeaderOptions = Omit<MiddyOptions, 'permissionsPolicy'> & {
  /** Features this answer allows (`{ 'clipboard-write': 'self' }`); every other one stays off. */
  permissionsPolicy?: Readonly<Partial<Record<PermissionsPolicyFeature, string>>>;
};

/**
 * The Permissions-Policy features every answer turns off: those of the middleware's default list
 * that current Chromium recognises. The middleware's list also names features browsers dropped or
 * never shipped (battery, document-domain, monetization, window-placement, vertical-scroll, ...),
 * and Chromium logs "Unrecognized feature" for each on every page: checked against headless
 * Chromium 156, the console browser test fails when a page logs one.
 */
export const PERMISSIONS_POLICY_FEATURES = [
  'accelerometer',
  'autoplay',
  'camera',
  'clipboard-read',
  'clipboard-write',
  'cross-origin-isolated',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'gamepad',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'interest-cohort',
  'keyboard-map',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'speaker-selection',
  'sync-xhr',
  'usb',
  'xr-spatial-tracking',
] as const;
export type PermissionsPolicyFeature = (typeof PERMISSIONS_POLICY_FEATURES)[number];

export function permissionsPolicy(allowed: SecurityHeaderOptions['permissionsPolicy'] = {}): string {
  return PERMISSIONS_POLICY_FEATURES.map((feature) => `${feature}=(${allowed[feature] ?? ''})`).join(', ');
}

interface HeaderRequest {
  response?: { headers?: Record<string, unknown> } | unknown;
}

/**
 * The handlers' security-headers middleware: middy's `http-security-headers` with its defaults,
 * except the Permissions-Policy, which names PERMISSIONS_POLICY_FEATURES only.
 */
export function securityHeadersMiddleware(options: SecurityHeaderOptions = {}) {
  const { permissionsPolicy: allowed, ...rest } = options;
  const middy = httpSecurityHeaders({ ...rest, permissionsPolicy: false }) as unknown as {
    after: (request: HeaderRequest) => void;
    onError: (request: HeaderRequest) => void;
  };
  const policy = permissionsPolicy(allowed);
  const withPolicy = (request: HeaderRequest) => {
    const response = request.response as { headers?: Record<string, unknown> } | undefined;
    if (response?.headers) response.headers['Permissions-Policy'] = policy;
  };
  return {
    after: (request: HeaderRequest) => {
      middy.after(request);
      withPolicy(request);
    },
    onError: (request: HeaderRequest) => {
      middy.onError(request);
      withPolicy(request);
    },
  };
}

/**
 * The security headers every answer carries (X-Content-Type-Options: nosniff, HSTS, CSP, frame and
 * referrer policies, ...). They are exactly what the handlers' middleware adds with its defaults:
 * computed once from that middleware, so the answers the gateways give themselves (401, 403, 404,
 * 413, 429, malformed requests, 5xx; the local gateway and the stack's gateway responses) cannot
 * drift from the handlers' own.
 */
function middlewareHeaders(): Readonly<Record<string, string>> {
  const request = { response: { statusCode: 200, headers: {} as Record<string, string>, body: '' } };
  securityHeadersMiddleware().after(request);
  return Object.freeze({ ...request.response.headers });
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = middlewareHeaders();
