import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Reads the analyst's prompt files. From the source tree (local runtime, tests) they are in
 * shared/domain/analyst/prompts; in the Lambda bundle the stack copies that folder to `prompts/`
 * beside the bundle (infra/constructs/investigation-workflow.ts), i.e. next to import.meta.url.
 */
const CANDIDATES = [
  new URL('./prompts/', import.meta.url),
  new URL('../../domain/analyst/prompts/', import.meta.url),
];

let folder: URL | undefined;
const cache = new Map<string, string>();

export function readPromptFile(name: string): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  folder ??= CANDIDATES.find((candidate) => existsSync(fileURLToPath(new URL('system.md', candidate))));
  if (!folder) throw new Error('The analyst prompt files are missing (prompts/system.md)');
  const text = readFileSync(fileURLToPath(new URL(name, folder)), 'utf8');
  cache.set(name, text);
  return text;
}
