/**
 * The presented key with its last character replaced by a different one. Appending a fixed
 * character instead fails one run in 64: the key may already end with it, and then the
 * "tampered" key is the real one.
 */
export function tamperedApiKey(apiKey: string): string {
  const replacement = apiKey.endsWith('A') ? 'B' : 'A';
  return `${apiKey.slice(0, -1)}${replacement}`;
}
