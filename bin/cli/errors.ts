/** A mistake in how an operator command was called or configured (message shown as "Error: ..."). */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
