import { readFileSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { SETTING_NAMES, SETTINGS, variableOf } from './declaration';

/**
 * docs/deploy.md's settings table, written from the settings' declaration by `npm run docs:settings`
 * between the two markers; test/unit/settings/deploy-settings-table.test.ts fails when the file and the
 * declaration disagree.
 */
export const SETTINGS_TABLE_FILE = 'docs/deploy.md';
const START =
  '<!-- settings table: written by `npm run docs:settings` from infra/settings/declaration.ts -->';
const END = '<!-- end of settings table -->';

/** Settings read elsewhere than the declaration: the SIEM pull connectors (infra/constructs/incident-sync.ts). */
const ROWS_READ_ELSEWHERE = [
  '| `siem*Url`, `siem*SecretArn`, `siemPullIntervalMinutes` | none, 5 | `SIS_SIEM_*` | SIEM pull connectors ([incidents.md](incidents.md#storage-delivery-and-operation)). |',
];

export function settingsTable(): string {
  const rows = SETTING_NAMES.map((name) => {
    const { docs } = SETTINGS[name];
    const variable = variableOf(name);
    const on = variable ? `\`${variable.name}\` (${variable.on})` : '';
    return `| \`${name}\` | ${docs.default} | ${on} | ${docs.meaning} |`;
  });
  return [
    '| Setting | Default | Function variable | Meaning |',
    '| --- | --- | --- | --- |',
    ...rows,
    ...ROWS_READ_ELSEWHERE,
  ].join('\n');
}

/** The file with its table replaced by the declared one. */
export function withSettingsTable(markdown: string): string {
  const start = markdown.indexOf(START);
  const end = markdown.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${SETTINGS_TABLE_FILE} has no settings-table markers`);
  return `${markdown.slice(0, start)}${START}\n\n${settingsTable()}\n\n${markdown.slice(end)}`;
}

/** A setting's own default, as the schema gives it for an unset value (undefined: none). */
export function declaredDefault(name: keyof typeof SETTINGS): unknown {
  const schema: z.ZodType = SETTINGS[name].schema;
  const result = schema.safeParse(undefined);
  return result.success ? result.data : undefined;
}

export function writeSettingsTable(root: string): void {
  const file = `${root}/${SETTINGS_TABLE_FILE}`;
  writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8')));
}
