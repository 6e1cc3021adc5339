import { signedIn, startSignIn } from './auth';
import { apiUrl } from './base';

/** An error answered by the service: its status and the message of its `{"error":{...}}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Calls a console data route with the signed-in person's ID token; an expired sign-in signs in again. */
export async function api<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: { query?: Query; body?: unknown } = {},
): Promise<T> {
  const session = signedIn();
  if (!session) return startSignIn();
  const headers: Record<string, string> = {
    accept: 'application/json',
    authorization: `Bearer ${session.idToken}`,
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(apiUrl(`/api/v1/console${withQuery(path, options.query)}`), {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  if (response.status === 204) return undefined as T;
  if (response.ok) return (await response.json()) as T;
  let code = 'HTTP_ERROR';
  let message = `The service answered HTTP ${response.status}.`;
  try {
    const body = (await response.json()) as { error?: { code?: string; message?: string } };
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // not JSON: keep the generic message
  }
  throw new ApiError(response.status, code, message);
}

/** Fetches a route's answer as a file (the STIX export) for a download link. */
export async function apiBlob(path: string): Promise<Blob> {
  const session = signedIn();
  if (!session) return startSignIn();
  const response = await fetch(apiUrl(`/api/v1/console${path}`), {
    headers: { authorization: `Bearer ${session.idToken}` },
  });
  if (!response.ok)
    throw new ApiError(response.status, 'HTTP_ERROR', `The service answered HTTP ${response.status}.`);
  return response.blob();
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 403) return `Not allowed: ${error.message}`;
    if (error.status === 404) return `Not found: ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
