import type { z } from 'zod';
import { ANALYST_SETTINGS } from './analyst-settings';
import type { SettingDeclaration, SettingVariable } from './declare';
import { INTEL_SETTINGS } from './intel-settings';
import { RETENTION_SETTINGS } from './retention-settings';
import { SERVICE_SETTINGS } from './service-settings';
import { WEBHOOK_SETTINGS } from './webhook-settings';

export type { SettingVariable, VariableRecipients } from './declare';
export { DEFAULT_FEEDS } from './intel-settings';

/**
 * Every per-tenant deployment setting, declared once: its CDK context key (the property name), its
 * zod schema with its default, the function variable it becomes and on which functions, and its row
 * of docs/deploy.md's settings table. infra/settings.ts parses the context with these schemas, the
 * stack sets the variables of `every function` from them (infra/tenant/environment.ts), the synth-time
 * configuration check names the setting behind a variable (infra/function-config.ts), and
 * `npm run docs:settings` writes the table (checked by test/unit/settings/deploy-settings-table.test.ts).
 *
 * CDK-only: the functions' side of a variable (its schema over process.env, its default) is
 * shared/config.ts, which every bundle carries; the documentation text stays here, out of bundles.
 * Declaration order is the table's order and the order of the variables in every function's
 * environment.
 */
export const SETTINGS = {
  ...SERVICE_SETTINGS,
  ...INTEL_SETTINGS,
  ...ANALYST_SETTINGS,
  ...WEBHOOK_SETTINGS,
  ...RETENTION_SETTINGS,
};

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** The variable a setting becomes; undefined for a setting that shapes resources only. */
export function variableOf(name: SettingName): SettingVariable | undefined {
  const declaration: SettingDeclaration<z.ZodType> = SETTINGS[name];
  return declaration.variable;
}

/** The name of the variable a setting becomes, for the parts of the stack that set it. */
export function variableNameOf(name: SettingName): string {
  const variable = variableOf(name);
  if (!variable) throw new Error(`setting ${name} declares no function variable`);
  return variable.name;
}
