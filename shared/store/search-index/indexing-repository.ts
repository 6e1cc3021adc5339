import { setTimeout as pause } from 'node:timers/promises';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchWriteAll } from '../batch-operations';
import { isSingleWriteConditionFailure } from '../condition-failures';
import { sessionTtl } from '../retention/retention-ttl';
import { DOC_SK, docPk, openPk, postingSk, TENANT_PK, termPk } from './keys';
import { ownedPosting, postingItems, storedTerms } from './postings';
import type { SearchEntry } from './records';

/**
 * Writes a session's search postings (keys.ts): its open and tenant postings at the start, its term
 * postings whenever its searchable fields change (every status change re-indexes it).
 */
const MAX_ATTEMPTS = 5;

/** Another re-index of the same session moved its term document while this one wrote postings. */
class ConcurrentReindex extends Error {
  constructor(sessionId: string) {
    super(`Session ${sessionId} was re-indexed concurrently`);
    this.name = 'ConcurrentReindex';
  }
}

export class SearchIndexingRepository {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Makes the session findable by exactly `findable` (domain `termsForSession`), posted under
   * `posted` (domain `postingTermsFor`), replacing whatever it was indexed under before. Call it
   * whenever the session's searchable fields change. A session's owner, created_at and session_id
   * never change, so its postings keep one sort key for life.
   */
  async indexSession(
    entry: SearchEntry,
    findable: readonly string[],
    posted: readonly string[] = findable,
  ): Promise<void> {
    const terms = { findable: storedTerms(findable), posted: storedTerms(posted) };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.tryIndex(entry, terms);
        break;
      } catch (error) {
        const concurrent = isSingleWriteConditionFailure(error) || error instanceof ConcurrentReindex;
        if (!concurrent || attempt >= MAX_ATTEMPTS) throw error;
        await pause(Math.random() * 20 * 2 ** attempt);
      }
    }
    // After the term postings exist, so a search in between (it reads the open postings before the
    // others) finds the session twice (merged into one hit), never not at all.
    await this.doc.send(
      new DeleteCommand({
        TableName: this.table,
        Key: { pk: openPk(entry.owner_key_id), sk: postingSk(entry) },
      }),
    );
  }

  /**
   * Makes a session that has just started findable by exactly `terms` (and listed in the tenant
   * partition) with two item writes: its open posting and its tenant posting. Call it once, before
   * anything else indexes the session; the first `indexSession` replaces both.
   */
  async indexOpenSession(entry: SearchEntry, terms: readonly string[]): Promise<void> {
    await this.indexOpenSessions([{ entry, terms }]);
  }

  /** indexOpenSession for sessions started together (a batch): their writes in shared batch calls. */
  async indexOpenSessions(sessions: readonly { entry: SearchEntry; terms: readonly string[] }[]) {
    await batchWriteAll(
      this.doc,
      this.table,
      sessions.flatMap(({ entry, terms }) => {
        const wanted = storedTerms(terms);
        return [
          { PutRequest: { Item: ownedPosting(TENANT_PK, entry, wanted) } },
          { PutRequest: { Item: ownedPosting(openPk(entry.owner_key_id), entry, wanted) } },
        ];
      }),
    );
  }

  private async tryIndex(
    entry: SearchEntry,
    { findable, posted: terms }: { findable: string[]; posted: string[] },
  ): Promise<void> {
    const { Item: current } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: docPk(entry.session_id), sk: DOC_SK },
        ConsistentRead: true,
      }),
    );
    const previousTerms = Array.isArray(current?.terms) ? current.terms.map(String) : [];
    let version = current ? Number(current.version ?? 0) : undefined;

    const putDoc = async (docTerms: string[]) => {
      await this.doc.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: docPk(entry.session_id),
            sk: DOC_SK,
            terms: docTerms,
            version: (version ?? 0) + 1,
            ...sessionTtl(entry.session_id),
          },
          ...(version === undefined
            ? { ConditionExpression: 'attribute_not_exists(pk)' }
            : {
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              }),
        }),
      );
      version = (version ?? 0) + 1;
    };

    const stale = previousTerms.filter((term) => !terms.includes(term));
    const widened = [...new Set([...previousTerms, ...terms])];
    if (current === undefined || widened.length > previousTerms.length) await putDoc(widened);

    const requests: Record<string, unknown>[] = [
      ...stale.map((term) => ({
        DeleteRequest: { Key: { pk: termPk(entry.owner_key_id, term), sk: postingSk(entry) } },
      })),
      ...postingItems(entry, findable, terms).map((Item) => ({ PutRequest: { Item } })),
    ];
    await batchWriteAll(this.doc, this.table, requests);
    if (stale.length > 0) {
      await putDoc(terms);
      return;
    }
    // The document already lists exactly the posted terms, unless another re-index of the session
    // (a cancel's while the completing step indexes) moved it meanwhile: that one may have deleted
    // postings this one wrote again after, which its document then no longer lists. A consistent
    // read of the version tells; the caller then indexes again from the document as it is now.
    const { Item: after } = await this.doc.send(
      new GetCommand({
        TableName: this.table,
        Key: { pk: docPk(entry.session_id), sk: DOC_SK },
        ConsistentRead: true,
        ProjectionExpression: '#version',
        ExpressionAttributeNames: { '#version': 'version' },
      }),
    );
    // A document written before versions counts as version 0, as when it was read above.
    if ((after ? Number(after.version ?? 0) : undefined) !== version)
      throw new ConcurrentReindex(entry.session_id);
  }
}
