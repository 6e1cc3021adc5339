import { ConfigError, parseConfig } from '../shared/config';

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

/** Deployment settings (CDK context) behind the variables the stack sets from them. */
const SETTING_OF_VARIABLE: Readonly<Record<string, string>> = {
  SIS_TENANT: 'tenant',
  SIS_PUBLIC_URL: 'publicUrl (or customDomainName)',
  SIS_LEGAL_URL: 'legalUrl',
  SIS_CONTACT_EMAIL: 'contactEmail',
  SIS_SYNC_WAIT_SECONDS: 'syncWaitSeconds',
  SIS_AUTHORIZER_CACHE_TTL_SECONDS: 'authorizerCacheTtlSeconds',
  SIS_DEFAULT_RATE_PER_SECOND: 'rateLimitPerSecond',
  SIS_DEFAULT_BURST: 'burstLimit',
  SIS_DEFAULT_DAILY_QUOTA: 'dailyQuota',
  SIS_INTEL_SECRET_ARN: 'intelSecretArn',
  SIS_INTEL_MISP_URL: 'intelMispUrl',
  SIS_INTERNAL_SUFFIXES: 'internalSuffixes',
  SIS_ANALYST: 'analyst',
  SIS_BEDROCK_MODEL_ID: 'bedrockModelId',
  SIS_BEDROCK_GUARDRAIL_ID: 'bedrockGuardrailId',
  SIS_BEDROCK_GUARDRAIL_VERSION: 'bedrockGuardrailVersion',
  SIS_ANALYST_MAX_TURNS: 'analystMaxTurns',
  SIS_ANALYST_MAX_TOOL_CALLS: 'analystMaxToolCalls',
  SIS_ANALYST_MAX_TOKENS: 'analystMaxTokens',
  SIS_ANALYST_MAX_SECONDS: 'analystMaxSeconds',
  SIS_MAX_RUNNING_INVESTIGATIONS: 'maxRunningInvestigations',
  SIS_BEDROCK_MONTHLY_TOKEN_BUDGET: 'bedrockMonthlyTokenBudget',
  SIS_DEFAULT_DAILY_INVESTIGATIONS: 'dailyInvestigationQuota',
};

function settingOf(variable: string): string | undefined {
  if (SETTING_OF_VARIABLE[variable]) return SETTING_OF_VARIABLE[variable];
  if (/^SIS_INTEL_[A-Z]+_ENABLED$/.test(variable)) return 'intelConnectors';
  if (/^SIS_SIEM_[A-Z]+_/.test(variable)) return `siem${variable.split('_')[2]?.toLowerCase()}Url`;
  return undefined;
}

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
