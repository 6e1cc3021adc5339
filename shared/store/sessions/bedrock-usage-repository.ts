import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The tenant's Bedrock tokens per calendar month (UTC), against its monthly budget, in the sessions
 * table: pk `USAGE#BEDROCK`, sk `<YYYY-MM>`, `tokens` (input + output of every analyst turn), kept
 * about a year (TTL). One read before a turn, one atomic add after it.
 */
const usageKey = (month: string) => ({ pk: 'USAGE#BEDROCK', sk: month });
const KEEP_SECONDS = 400 * 86_400;

export class BedrockUsageRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async tokensIn(month: string): Promise<number> {
    const { Item } = await this.doc.send(new GetCommand({ TableName: this.table, Key: usageKey(month) }));
    return Number(Item?.tokens ?? 0);
  }

  /** Adds the tokens and answers the month's new total. */
  async addTokens(month: string, tokens: number, nowMs: number): Promise<number> {
    const { Attributes } = await this.doc.send(
      new UpdateCommand({
        TableName: this.table,
        Key: usageKey(month),
        UpdateExpression: 'ADD tokens :tokens SET expires_at_epoch = :expires',
        ExpressionAttributeValues: { ':tokens': tokens, ':expires': Math.floor(nowMs / 1000) + KEEP_SECONDS },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(Attributes?.tokens ?? tokens);
  }
}
