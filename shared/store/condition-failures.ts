/**
 * Whether a write was refused by its condition: a single write's ConditionalCheckFailedException, or a
 * transaction cancelled because one of its conditions failed (not for a conflict or throttling,
 * which the caller should not read as "the item was not in the expected state").
 */
export function isConditionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ConditionalCheckFailedException') return true;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    error.name === 'TransactionCanceledException' &&
    !!reasons?.some((r) => r.Code === 'ConditionalCheckFailed')
  );
}
