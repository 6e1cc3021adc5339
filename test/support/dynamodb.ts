import { randomBytes } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createLocalDynamoDbClient } from '../../local/dynamodb-local';
import { ensureTables, tableEnvironment, tableNamesFor } from '../../shared/store/create-tables';
import type { TableId } from '../../shared/store/tables';

/** The shared DynamoDB Local started by test/support/dynamodb-global-setup.ts. */
export function dynamodbEndpoint(): string {
  const endpoint = inject('dynamodbEndpoint');
  if (!endpoint) {
    throw new Error(
      'No DynamoDB Local endpoint: run this file in a vitest project with dynamodb-global-setup',
    );
  }
  return endpoint;
}

export interface IsolatedTables {
  /** Physical table names are `<prefix>-<suffix>`. */
  prefix: string;
  names: Record<TableId, string>;
  /** SIS_*_TABLE and SIS_DYNAMODB_ENDPOINT, ready to merge into process.env or a handler's env. */
  env: Record<string, string>;
  client: DynamoDBClient;
}

/**
 * Creates a fresh set of the declared tables under a random prefix, so test files running in
 * parallel against the one DynamoDB Local never see each other's data.
 */
export async function createIsolatedTables(): Promise<IsolatedTables> {
  const endpoint = dynamodbEndpoint();
  const prefix = `sis-t${randomBytes(5).toString('hex')}`;
  const names = tableNamesFor(prefix);
  const client = createLocalDynamoDbClient(endpoint);
  await ensureTables(client, names);
  return { prefix, names, env: { ...tableEnvironment(names), SIS_DYNAMODB_ENDPOINT: endpoint }, client };
}
