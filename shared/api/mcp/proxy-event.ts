import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { HttpResult } from '../http-handler';

/** The API Gateway proxy event as the web-standard Request the MCP SDK serves. */
export function requestFromEvent(event: APIGatewayProxyEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers.set(name, value);
  const host = event.requestContext?.domainName ?? headers.get('host') ?? 'localhost';
  const hasBody =
    event.body !== null && event.body !== undefined && !['GET', 'HEAD'].includes(event.httpMethod);
  const body = hasBody
    ? Buffer.from(event.body as string, event.isBase64Encoded ? 'base64' : 'utf8')
    : undefined;
  return new Request(`https://${host}${event.path}`, { method: event.httpMethod, headers, body });
}

/** The SDK's Response as the HTTP wrapper's result; JSON responses only (no stream), so the body is text. */
export async function resultFromResponse(response: Response): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, rawBody: await response.text() };
}
