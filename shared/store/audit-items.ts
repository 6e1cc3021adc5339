import type { AuditEntry } from '../domain/keys/key-lifecycle';
import { auditTtl } from './retention/retention-ttl';

/**
 * The admin audit list's items in the keys table: one partition (pk AUDIT), sorted by time then ID.
 * Written by the keys store and by the tenant-knowledge store, each in its own transaction.
 */
export const AUDIT_PK = 'AUDIT';

/** The Put of one audit entry, for a TransactWriteItems; kept for the audit retention (retention/retention-ttl.ts). */
export function auditPut(table: string, entry: AuditEntry) {
  return {
    TableName: table,
    Item: { pk: AUDIT_PK, sk: `${entry.at}#${entry.audit_id}`, ...entry, ...auditTtl(entry.at) },
  };
}
