import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';

/** Attempts per DynamoDB call (the first and three retries with the SDK's backoff and jitter). */
export const DYNAMODB_MAX_ATTEMPTS = 4;

/**
 * Builds the document client. With a local endpoint (DynamoDB Local) it uses throwaway static
 * credentials, because DynamoDB Local accepts any and an operator's machine may have none.
 */
export function createDocumentClient(cfg: Config): DynamoDBDocumentClient {
  const local = cfg.SIS_DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient({
    region: cfg.AWS_REGION,
    maxAttempts: DYNAMODB_MAX_ATTEMPTS,
    ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  if (local && cfg.SIS_DYNAMODB_FAULT_RATE) injectThrottling(client, cfg.SIS_DYNAMODB_FAULT_RATE);
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}

const processClients = new WeakMap<Config, DynamoDBDocumentClient>();

/**
 * The process's document client for this configuration: every repository of a function shares it,
 * so a cold start resolves credentials and opens connections once (a poll also reads the cursor key,
 * a start also writes the graph and the search index). createDocumentClient stays for callers that
 * need a client of their own (tests that instrument or destroy it).
 */
export function documentClientFor(cfg: Config): DynamoDBDocumentClient {
  let doc = processClients.get(cfg);
  if (!doc) {
    doc = createDocumentClient(cfg);
    processClients.set(cfg, doc);
  }
  return doc;
}

/** Counts of the TEST-ONLY throttling seam, read by the reliability tests (same process). */
export const injectedThrottling = { attempts: 0, throttled: 0 };

/**
 * TEST-ONLY (SIS_DYNAMODB_FAULT_RATE, local endpoint only): fails a fraction of request attempts
 * the way DynamoDB throttles. The middleware sits in the deserialize step, inside the SDK's retry
 * middleware, so every attempt (first try and each retry) draws again, exactly as real throttling
 * would be met.
 */
function injectThrottling(client: DynamoDBClient, rate: number): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      injectedThrottling.attempts++;
      if (Math.random() < rate) {
        injectedThrottling.throttled++;
        throw Object.assign(new Error('Rate of requests exceeds the allowed throughput (injected).'), {
          name: 'ProvisionedThroughputExceededException',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: 'deserialize', name: 'sisInjectedThrottling', priority: 'low' },
  );
}
