import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { documentClientFor } from './dynamo-client';
import { tableName } from './tables';

/**
 * A repository over the configured sessions table (shared/store/sessions/, shared/store/search-index/), e.g.
 * `onSessionsTable(cfg, ToolResultsRepository)`. A function builds only the repositories it uses, so
 * its bundle carries only their code.
 */
export function onSessionsTable<T>(
  cfg: Config,
  Repository: new (doc: DynamoDBDocumentClient, tableName: string) => T,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
): T {
  return new Repository(doc, tableName(cfg, 'sessions'));
}
