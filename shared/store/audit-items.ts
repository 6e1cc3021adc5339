import { type DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../domain/keys/key-lifecycle';
import { isConditionFailure } from './condition-failures';
import { auditTtl } from './retention/retention-ttl';

/**
 * The admin audit list's items in the keys table: one partition (pk AUDIT), sorted by time then ID.
 * Written by the keys, webhooks and tenant-knowledge stores, each change in one transaction with its
 * entry (transactWithAudit).
 */
export const AUDIT_PK = 'AUDIT';

/** One action of a TransactWriteItems. */
export type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number];

/** The Put of one audit entry, for a TransactWriteItems; kept for the audit retention (retention/retention-ttl.ts). */
export function auditPut(table: string, entry: AuditEntry) {
  return {
    TableName: table,
    Item: { pk: AUDIT_PK, sk: `${entry.at}#${entry.audit_id}`, ...entry, ...auditTtl(entry.at) },
  };
}

/**
 * Writes a change's actions and its audit entry (in `auditTable`) together or not at all. False when
 * one of the actions' conditions refused the change (nothing was written), so each caller says what a
 * refusal means (a conflict, a missing item, nothing to do); any other failure is thrown.
 */
export async function transactWithAudit(
  doc: DynamoDBDocumentClient,
  auditTable: string,
  actions: readonly TransactItem[],
  audit: AuditEntry,
): Promise<boolean> {
  try {
    await doc.send(
      new TransactWriteCommand({ TransactItems: [...actions, { Put: auditPut(auditTable, audit) }] }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
