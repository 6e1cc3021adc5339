import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';

/**
 * Builds the document client. With a local endpoint (DynamoDB Local) it uses throwaway static
 * credentials, because DynamoDB Local accepts any and an operator's machine may have none.
 */
export function createDocumentClient(cfg: Config): DynamoDBDocumentClient {
  const local = cfg.SIS_DYNAMODB_ENDPOINT;
  const client = new DynamoDBClient({
    region: cfg.AWS_REGION,
    maxAttempts: 4,
    ...(local ? { endpoint: local, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
}
