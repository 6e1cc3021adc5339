import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Config } from '../config';
import { ConflictError } from '../domain/core/errors';
import { documentClientFor } from './dynamo-client';
import { tableName } from './tables';

/**
 * Pull-connector state in the incidents table (pk `CONNECTOR#<name>`, sk `STATE`): the watermark
 * (how far the SIEM has been read) and the outcome of the last run. Advancing is conditional on the
 * version read at the start of the run, so two overlapping runs of one connector (a slow run and the
 * next scheduled one) cannot move the watermark backwards.
 */
export interface ConnectorState {
  connector: string;
  watermark?: string;
  last_run_at?: string;
  last_run_outcome?: 'ok' | 'failed';
  last_error?: string;
  /** Incidents enqueued by the last run. */
  last_run_enqueued?: number;
  version: number;
}

const STATE_SK = 'STATE';
const connectorPk = (name: string) => `CONNECTOR#${name}`;

export class ConnectorStateRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(connector: string): Promise<ConnectorState> {
    const { Item } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: connectorPk(connector), sk: STATE_SK },
        ConsistentRead: true,
      }),
    );
    if (!Item) return { connector, version: 0 };
    const state: ConnectorState = { connector, version: Number(Item.version ?? 0) };
    for (const key of ['watermark', 'last_run_at', 'last_run_outcome', 'last_error'] as const) {
      if (typeof Item[key] === 'string') (state as unknown as Record<string, unknown>)[key] = Item[key];
    }
    if (typeof Item.last_run_enqueued === 'number') state.last_run_enqueued = Item.last_run_enqueued;
    return state;
  }

  /** Stores the state of a finished run; throws ConflictError if another run saved since `previous` was read. */
  async save(
    previous: ConnectorState,
    next: Omit<ConnectorState, 'version' | 'connector'>,
  ): Promise<ConnectorState> {
    const version = previous.version + 1;
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: connectorPk(previous.connector),
            sk: STATE_SK,
            connector: previous.connector,
            ...next,
            version,
          },
          ...(previous.version === 0
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': previous.version },
              }),
        }),
      );
    } catch (error) {
      if (error instanceof Error && error.name === 'ConditionalCheckFailedException') {
        throw new ConflictError(
          `Connector ${previous.connector} was run concurrently; this run's state was not saved.`,
        );
      }
      throw error;
    }
    return { ...next, connector: previous.connector, version };
  }
}

export function connectorStateRepositoryFromConfig(
  cfg: Config,
  doc: DynamoDBDocumentClient = documentClientFor(cfg),
) {
  return new ConnectorStateRepository(doc, tableName(cfg, 'incidents'));
}
