import { ConfigError, parseConfig } from '../shared/config';
import { SETTING_NAMES, variableOf } from './settings/declaration';

/**
 * The functions' own configuration check (shared/config.ts, the zod schema every cold start parses)
 * run over each function's environment at synth time: a setting a function would reject at its cold
 * start fails `cdk synth` instead, naming the variable and the deployment setting it comes from.
 *
 * The environment is read as CloudFormation will get it (resolved), so it includes every variable the
 * stack adds after the function is built. A value CloudFormation fills in at deploy time (a table's
 * name, a queue's URL, the API's ID in the public URL) becomes a placeholder of the right shape:
 * `Fn::Join` keeps its literal parts and every reference becomes `resolved-at-deploy`, so a URL
 * stays a URL and a name stays a name.
 */
const DEPLOY_TIME = 'resolved-at-deploy';

/**
 * The deployment setting (CDK context) behind a variable the stack sets, from the settings'
 * declaration; `<NAME>` in a declared variable stands for a connector's or feed's name. SIEM pull
 * connectors' settings are read by infra/constructs/incident-sync.ts, not declared there.
 */
function settingOf(variable: string): string | undefined {
  const declared = SETTING_NAMES.flatMap((setting) => {
    const declaredVariable = variableOf(setting);
    return declaredVariable ? [{ setting, ...declaredVariable }] : [];
  });
  const found =
    declared.find(({ name }) => name === variable) ??
    declared.find(({ name }) => name.includes('<NAME>') && namePattern(name).test(variable));
  if (found) return found.alsoFrom ? `${found.setting} (or ${found.alsoFrom})` : found.setting;
  if (/^SIS_SIEM_[A-Z]+_/.test(variable)) return `siem${variable.split('_')[2]?.toLowerCase()}Url`;
  return undefined;
}

const namePattern = (declared: string) => new RegExp(`^${declared.replace('<NAME>', '[A-Z0-9_]+')}$`);

/** A resolved CloudFormation value as the function will see it, deploy-time parts as placeholders. */
export function deployTimeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value && typeof value === 'object' && 'Fn::Join' in value) {
    const [separator, parts] = (value as { 'Fn::Join': [string, unknown[]] })['Fn::Join'];
    return parts.map(deployTimeValue).join(separator);
  }
  return DEPLOY_TIME;
}

/**
 * Values the functions accept (local tests set them) but no deployment may: each with why, checked
 * before the functions' own schema.
 */
const REFUSED_AT_SYNTH: Record<string, { refuses: (value: string) => boolean; why: string }> = {
  SIS_WEBHOOK_ALLOW_LOOPBACK: {
    refuses: (value) => value === 'true' || value === '1',
    why: 'lets webhooks reach loopback addresses; it is for local tests only and never deployed',
  },
};

function refusedAtSynth(env: NodeJS.ProcessEnv): string | undefined {
  for (const [name, { refuses, why }] of Object.entries(REFUSED_AT_SYNTH)) {
    const value = env[name];
    if (value !== undefined && refuses(value)) {
      const setting = settingOf(name);
      return `${name}=${value} ${why}${setting ? ` (deployment setting ${setting})` : ''}`;
    }
  }
  return undefined;
}

/**
 * The problem the function's cold start would report with this environment, with the settings
 * behind the named variables; undefined when it would start. A variable whose value is known only at
 * deploy time (a Cognito pool ID, say) cannot be judged here: a problem naming only such variables is
 * dropped with them and the rest checked again.
 */
export function functionConfigProblem(environment: Record<string, unknown>): string | undefined {
  const env: NodeJS.ProcessEnv = {};
  const deployTime = new Set<string>();
  for (const [name, value] of Object.entries(environment)) {
    env[name] = deployTimeValue(value);
    if (typeof value === 'object' && value !== null) deployTime.add(name);
  }
  const refused = refusedAtSynth(env);
  if (refused) return refused;
  for (;;) {
    try {
      parseConfig(env);
      return undefined;
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const variables = [...new Set(error.message.match(/\b(?:SIS|AWS)_[A-Z0-9_]+/g) ?? [])];
      const unknowable = variables.filter((name) => deployTime.has(name));
      if (unknowable.length > 0 && unknowable.length === variables.length) {
        for (const name of unknowable) {
          delete env[name];
          deployTime.delete(name);
        }
        continue;
      }
      const settings = [...new Set(variables.map(settingOf).filter((s): s is string => Boolean(s)))];
      const from = settings.length > 0 ? ` (deployment setting ${settings.join(', ')})` : '';
      return `${error.message}${from}`;
    }
  }
}
