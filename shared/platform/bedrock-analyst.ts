import {
  ApplyGuardrailCommand,
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandInput,
} from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { Config } from '../config';
import type { ConverseMessage, ConverseRequest, ConverseResult } from '../domain/analyst/converse';

/**
 * The thin client of the analyst's model: Converse and ApplyGuardrail of Bedrock Runtime, through
 * the AWS SDK (signed requests; the endpoint can be redirected with the SDK's standard
 * AWS_ENDPOINT_URL_BEDROCK_RUNTIME). Everything about the conversation is in shared/domain/analyst.
 *
 * The SDK client for Bedrock Runtime defaults to an HTTP/2 handler (for its bidirectional streaming
 * operations). Converse and ApplyGuardrail are plain request/response JSON calls, so this client uses
 * the HTTP/1.1 NodeHttpHandler: the same transport as the service's other SDK clients, with a socket
 * timeout, and one that any HTTP/1.1 endpoint (the tests' local Converse server) can serve.
 *
 * Throttling is retried by the SDK's standard retry strategy (exponential backoff with jitter, up to
 * SIS_BEDROCK_MAX_ATTEMPTS attempts). What still fails is thrown as a ModelCallError whose reason
 * the analyst turns into a fallback to the rules narrative.
 */
export type ModelFailure = 'model_throttled' | 'model_timeout' | 'model_error';

export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  constructor(
    readonly reason: ModelFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface GuardrailRef {
  id: string;
  version: string;
}

export interface AnalystModel {
  converse(request: ConverseRequest): Promise<ConverseResult>;
  /** ApplyGuardrail on untrusted input; true when the guardrail intervened. */
  screen(guardrail: GuardrailRef, texts: string[]): Promise<boolean>;
}

const THROTTLED = new Set([
  'ThrottlingException',
  'ServiceQuotaExceededException',
  'TooManyRequestsException',
]);
const TIMED_OUT = new Set(['TimeoutError', 'ModelTimeoutException', 'RequestTimeout', 'ETIMEDOUT']);

function failure(error: unknown): ModelCallError {
  const name = error instanceof Error ? error.name : 'Error';
  const code = (error as { code?: string } | null)?.code ?? '';
  const reason: ModelFailure = THROTTLED.has(name)
    ? 'model_throttled'
    : TIMED_OUT.has(name) || TIMED_OUT.has(code)
      ? 'model_timeout'
      : 'model_error';
  // Only the error's name leaves this module: messages of a failed call may quote the request.
  return new ModelCallError(reason, `Bedrock call failed: ${name}`);
}

export function bedrockAnalystModel(cfg: Config): AnalystModel {
  const client = new BedrockRuntimeClient({
    region: cfg.AWS_REGION,
    maxAttempts: cfg.SIS_BEDROCK_MAX_ATTEMPTS,
    requestHandler: new NodeHttpHandler({
      connectionTimeout: 5_000,
      requestTimeout: cfg.SIS_BEDROCK_TIMEOUT_SECONDS * 1000,
    }),
  });
  return {
    async converse(request) {
      try {
        const started = Date.now();
        const out = await client.send(new ConverseCommand(request as unknown as ConverseCommandInput));
        return {
          message: out.output?.message as ConverseMessage | undefined,
          stopReason: String(out.stopReason ?? 'unknown'),
          usage: { inputTokens: out.usage?.inputTokens ?? 0, outputTokens: out.usage?.outputTokens ?? 0 },
          latencyMs: out.metrics?.latencyMs ?? Date.now() - started,
        };
      } catch (error) {
        throw failure(error);
      }
    },
    async screen(guardrail, texts) {
      if (texts.length === 0) return false;
      try {
        const out = await client.send(
          new ApplyGuardrailCommand({
            guardrailIdentifier: guardrail.id,
            guardrailVersion: guardrail.version,
            source: 'INPUT',
            content: texts.map((text) => ({ text: { text } })),
          }),
        );
        return out.action === 'GUARDRAIL_INTERVENED';
      } catch (error) {
        throw failure(error);
      }
    },
  };
}
