import { type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { expiredItem } from '../retention/retention-ttl';
import { TENANT_PK } from './keys';
import { entryFromItem, hasTerm, type Item, MAX_EVALUATED_PER_SEARCH, TERM_NAMES } from './postings';
import type { SearchEntry, TenantListQuery } from './records';

/** The web console's list of the tenant's sessions: the tenant postings (keys.ts), newest first. */
export class TenantListRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Every session of the tenant (any owner, or the one `ownerKeyId` names), newest first, having all
   * of `terms` (and created from `since` on): one Query on the tenant partition, continued until the
   * page is full or MAX_EVALUATED_PER_SEARCH items were read.
   */
  async list(query: TenantListQuery): Promise<{ hits: SearchEntry[]; next?: string }> {
    const values: Record<string, unknown> = { ':pk': TENANT_PK };
    const filters = query.terms.map((term, i) => hasTerm(values, term, i));
    const names: Record<string, string> = filters.length ? { ...TERM_NAMES } : {};
    if (query.ownerKeyId) {
      values[':owner'] = query.ownerKeyId;
      names['#owner'] = 'owner_key_id';
      filters.push('#owner = :owner');
    }
    if (query.since) values[':since'] = query.since;
    const hits: Item[] = [];
    let evaluated = 0;
    let startKey: Record<string, unknown> | undefined = query.after
      ? { pk: TENANT_PK, sk: query.after }
      : undefined;
    for (;;) {
      const result = await this.doc.send(
        new QueryCommand({
          TableName: this.table,
          KeyConditionExpression: query.since ? 'pk = :pk AND sk >= :since' : 'pk = :pk',
          ...(filters.length
            ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names }
            : {}),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: filters.length ? Math.min(500, Math.max(100, query.limit + 1)) : query.limit + 1,
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      evaluated += result.ScannedCount ?? 0;
      // A session past its retention is not listed, though DynamoDB may not have deleted it yet.
      hits.push(...(result.Items ?? []).filter((item) => !expiredItem(item)));
      startKey = result.LastEvaluatedKey;
      if (hits.length > query.limit) {
        const page = hits.slice(0, query.limit);
        return { hits: page.map(entryFromItem), next: String(page.at(-1)?.sk) };
      }
      if (!startKey) return { hits: hits.map(entryFromItem) };
      if (evaluated >= MAX_EVALUATED_PER_SEARCH) {
        return { hits: hits.map(entryFromItem), next: String(startKey.sk) };
      }
    }
  }
}
