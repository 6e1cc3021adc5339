import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local Bedrock Runtime speaking the Converse and ApplyGuardrail wire protocol (REST-JSON over
 * HTTP/1.1): `POST /model/{modelId}/converse` and `POST /guardrail/{id}/version/{version}/apply`.
 * Errors are answered as Bedrock does (status + `x-amzn-errortype` + `{"message"}`). Every request's
 * SigV4 signature is verified against the test's dummy credentials with an independent
 * implementation of the documented algorithm, so the real client's signing is exercised.
 *
 * Replies come from a script: a function of the request (its messages tell which conversation and
 * which turn it is), returning a Converse output or an error.
 */
export interface ConverseCall {
  modelId: string;
  body: {
    system?: { text: string }[];
    messages: { role: string; content: Record<string, any>[] }[];
    toolConfig?: { tools: { toolSpec: { name: string } }[]; toolChoice?: unknown };
    guardrailConfig?: unknown;
    inferenceConfig?: { maxTokens?: number };
  };
  signatureValid: boolean;
  /** Assistant messages already in the request: 0 on the first turn. */
  turn: number;
}

export type FakeReply =
  | {
      content: Record<string, unknown>[];
      stopReason: string;
      usage?: { inputTokens: number; outputTokens: number };
    }
  | { error: { status: number; type: string; message: string } };

export interface FakeBedrock {
  endpoint: string;
  calls: ConverseCall[];
  guardrailCalls: { id: string; version: string; texts: string[]; signatureValid: boolean }[];
  stop(): Promise<void>;
}

export interface FakeBedrockOptions {
  credentials: { accessKeyId: string; secretAccessKey: string };
  region: string;
  reply: (call: ConverseCall) => FakeReply;
  /** Whether the guardrail intervenes on these texts; default never. */
  guardrail?: (texts: string[]) => boolean;
  /**
   * Without usage in a reply: estimate it from the text sizes (about 4 characters per token, the
   * usual rule of thumb for English) instead of fixed numbers; the bench uses this.
   */
  estimateUsage?: boolean;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
const uriEscape = (segment: string) =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function signatureValid(req: IncomingMessage, body: Buffer, options: FakeBedrockOptions): boolean {
  const auth = String(req.headers.authorization ?? '');
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!match) return false;
  const [, keyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  if (keyId !== options.credentials.accessKeyId || region !== options.region || service !== 'bedrock')
    return false;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const url = new URL(req.url ?? '/', 'http://localhost');
  const canonicalUri = url.pathname.split('/').map(uriEscape).join('/');
  const query = [...url.searchParams]
    .map(([k, v]) => `${uriEscape(k)}=${uriEscape(v)}`)
    .sort()
    .join('&');
  const names = signedHeaders!.split(';');
  const headers = names
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = ['POST', canonicalUri, query, headers, signedHeaders, sha256(body)].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  let key: Buffer = hmac(`AWS4${options.credentials.secretAccessKey}`, date!);
  for (const part of [region!, service!, 'aws4_request']) key = hmac(key, part);
  return createHmac('sha256', key).update(toSign).digest('hex') === signature;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });
}

export async function startFakeBedrock(options: FakeBedrockOptions): Promise<FakeBedrock> {
  const calls: ConverseCall[] = [];
  const guardrailCalls: FakeBedrock['guardrailCalls'] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const send = (status: number, payload: unknown, errorType?: string) => {
        const text = JSON.stringify(payload);
        res.writeHead(status, {
          'content-type': 'application/json',
          'x-amzn-requestid': 'fake-request-id',
          ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
        });
        res.end(text);
      };
      const valid = signatureValid(req, body, options);
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const converse = /^\/model\/([^/]+)\/converse$/.exec(path);
      const guardrail = /^\/guardrail\/([^/]+)\/version\/([^/]+)\/apply$/.exec(path);
      if (!valid) {
        send(
          403,
          { message: 'The request signature we calculated does not match the signature you provided.' },
          'InvalidSignatureException',
        );
        return;
      }
      if (req.method === 'POST' && converse) {
        const parsed = JSON.parse(body.toString('utf8')) as ConverseCall['body'];
        const call: ConverseCall = {
          modelId: decodeURIComponent(converse[1]!),
          body: parsed,
          signatureValid: valid,
          turn: parsed.messages.filter((m) => m.role === 'assistant').length,
        };
        calls.push(call);
        const reply = options.reply(call);
        if ('error' in reply) {
          send(reply.error.status, { message: reply.error.message }, reply.error.type);
          return;
        }
        const estimated = {
          inputTokens: Math.ceil(body.length / 4),
          outputTokens: Math.ceil(JSON.stringify(reply.content).length / 4),
        };
        const usage =
          reply.usage ?? (options.estimateUsage ? estimated : { inputTokens: 1200, outputTokens: 150 });
        send(200, {
          output: { message: { role: 'assistant', content: reply.content } },
          stopReason: reply.stopReason,
          usage: { ...usage, totalTokens: usage.inputTokens + usage.outputTokens },
          metrics: { latencyMs: 321 },
        });
        return;
      }
      if (req.method === 'POST' && guardrail) {
        const parsed = JSON.parse(body.toString('utf8')) as { content: { text: { text: string } }[] };
        const texts = parsed.content.map((c) => c.text.text);
        guardrailCalls.push({
          id: decodeURIComponent(guardrail[1]!),
          version: guardrail[2]!,
          texts,
          signatureValid: valid,
        });
        const intervened = options.guardrail?.(texts) ?? false;
        send(200, {
          usage: {
            topicPolicyUnits: 1,
            contentPolicyUnits: 1,
            wordPolicyUnits: 1,
            sensitiveInformationPolicyUnits: 1,
            sensitiveInformationPolicyFreeUnits: 0,
            contextualGroundingPolicyUnits: 0,
          },
          action: intervened ? 'GUARDRAIL_INTERVENED' : 'NONE',
          outputs: intervened ? [{ text: 'Blocked by guardrail.' }] : [],
          assessments: [],
        });
        return;
      }
      send(404, { message: `Unknown operation ${req.method} ${path}` }, 'UnknownOperationException');
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    guardrailCalls,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
