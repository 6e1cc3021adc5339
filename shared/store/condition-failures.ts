/**
 * What a refused or cancelled DynamoDB write means, one named predicate per meaning, so a caller says
 * which one it acts on. Checked by name (as the SDK sets it) so this module brings no SDK class.
 */

type Cancelled = Error & { CancellationReasons?: { Code?: string }[] };

function cancelledWith(error: unknown, codes: readonly string[]): boolean {
  return (
    error instanceof Error &&
    error.name === 'TransactionCanceledException' &&
    !!(error as Cancelled).CancellationReasons?.some((r) => codes.includes(r.Code ?? ''))
  );
}

/** A single write (Put, Update, Delete) refused by its condition. */
export function isSingleWriteConditionFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * Whether a write was refused by its condition: a single write's ConditionalCheckFailedException, or a
 * transaction cancelled because one of its conditions failed (not for a conflict or throttling,
 * which the caller should not read as "the item was not in the expected state").
 */
export function isConditionFailure(error: unknown): boolean {
  return isSingleWriteConditionFailure(error) || cancelledWith(error, ['ConditionalCheckFailed']);
}

/**
 * A conditional transaction that lost an optimistic-concurrency race: cancelled by a failed condition
 * or by a conflicting transaction on the same item. Worth retrying later, when the writers are spread.
 */
export function isLostWriteRace(error: unknown): boolean {
  return cancelledWith(error, ['ConditionalCheckFailed', 'TransactionConflict']);
}

/**
 * Any contended write worth an immediate retry with backoff: a refused single write, a transaction
 * conflict, or a lost race of a transaction (the graph store's optimistic writes).
 */
export function isContendedWrite(error: unknown): boolean {
  return (
    isSingleWriteConditionFailure(error) ||
    (error instanceof Error && error.name === 'TransactionConflictException') ||
    isLostWriteRace(error)
  );
}

/** The reason codes of a cancelled transaction, one per action. */
export function cancellationCodes(error: unknown): string[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  return ((error as Cancelled).CancellationReasons ?? []).map((r) => r.Code ?? 'None');
}
