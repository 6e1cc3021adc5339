import { readFileSync } from 'node:fs';
import type { SuccessBody } from '../api';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../errors';
import type { components } from '../generated/api';
import { printJson, printText, table } from '../output';

type BatchBody = components['schemas']['StartInvestigationBatchRequest'];
type BatchAnswer = SuccessBody<'startInvestigationBatch', 202>;
type EntityType = components['schemas']['EntityType'];

const ENTITY_TYPES = new Set<string>(['ip', 'user', 'host', 'domain']);

/**
 * The entities of a batch file: one a line, `value` or `type:value` (a prefix that is not an entity
 * type stays part of the value, so `::1` or `corp\alice` read as written); blank lines and lines
 * starting with `#` are skipped.
 */
export function batchFileEntities(text: string): BatchBody['entities'] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'))
    .map((line) => {
      const colon = line.indexOf(':');
      const prefix = colon > 0 ? line.slice(0, colon).toLowerCase() : '';
      return ENTITY_TYPES.has(prefix)
        ? { type: prefix as EntityType, value: line.slice(colon + 1).trim() }
        : line;
    });
}

/** `sis investigate --batch FILE`: starts the batch and prints it (with --json, the POST answer). */
export async function investigateBatch(
  file: string,
  flags: { persona?: string; tlp?: string },
  ctx: CommandContext,
): Promise<number> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`Cannot read the batch file ${file}.`, EXIT.usage);
  }
  const body: BatchBody = {
    entities: batchFileEntities(text),
    ...(flags.persona ? { persona: flags.persona } : {}),
    ...(flags.tlp ? { tlp: flags.tlp as BatchBody['tlp'] } : {}),
  };
  const answer = (await ctx.api.call('startInvestigationBatch', { body })).body as BatchAnswer;
  if (ctx.json) {
    printJson(answer);
    return EXIT.ok;
  }
  const rows = answer.sessions.map((entry) => [
    `${entry.entity.type}:${entry.entity.value}`,
    'session_id' in entry ? entry.session_id : `not started: ${entry.error.code}`,
  ]);
  printText(
    [
      `Batch ${answer.batch_id}: ${rows.length} entities.`,
      table(['ENTITY', 'SESSION'], rows),
      `Follow each with: sis sessions watch <session>`,
    ].join('\n'),
  );
  return EXIT.ok;
}
