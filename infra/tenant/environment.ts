import type { TenantSettings } from '../settings';
import { SETTING_NAMES, variableOf } from '../settings/declaration';

/**
 * The variables every function gets from the deployment settings: each setting declared `on:
 * 'every function'` (infra/settings/declaration.ts), as its string, when set. Declaration order.
 */
export function everyFunctionEnvironment(settings: TenantSettings): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const variable = variableOf(name);
    const value = settings[name];
    if (variable?.on === 'every function' && value !== undefined && value !== '') {
      environment[variable.name] = String(value);
    }
  }
  return environment;
}
