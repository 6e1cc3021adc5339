import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { TenantSettings } from '../settings';

/**
 * The Bedrock analyst's settings as the workflow's steps receive them, and its one model grant.
 *
 * Converse needs `bedrock:InvokeModel` on what it invokes:
 * - a foundation model ID: that model in the stack's region;
 * - a cross-region inference profile ID (`us.`, `eu.`, `apac.`, `global.`…): the profile in the stack's
 *   region, plus the profile's model in the destination regions (`*`), the latter only when the call
 *   comes through that profile (condition `bedrock:InferenceProfileArn`), as Bedrock's inference
 *   profile prerequisites describe;
 * - an ARN: exactly that ARN (an application inference profile's destination models are not known
 *   here; docs/analyst.md).
 * With a guardrail, `bedrock:ApplyGuardrail` on that guardrail (Converse with guardrailConfig and the
 * screening of untrusted text both use it).
 */
export interface AnalystSettings {
  modelId: string;
  guardrail?: { id: string; version: string };
  environment: Record<string, string>;
}

const PROFILE_PREFIX = /^(us|eu|apac|us-gov|jp|au|ca|global)\./;

export function analystSettings(settings: TenantSettings): AnalystSettings | undefined {
  if (settings.analyst !== 'bedrock' || !settings.bedrockModelId) return undefined;
  const guardrail =
    settings.bedrockGuardrailId && settings.bedrockGuardrailVersion
      ? { id: settings.bedrockGuardrailId, version: settings.bedrockGuardrailVersion }
      : undefined;
  const optional = (name: string, value: number | undefined) =>
    value === undefined ? {} : { [name]: String(value) };
  return {
    modelId: settings.bedrockModelId,
    ...(guardrail ? { guardrail } : {}),
    environment: {
      SIS_ANALYST: 'bedrock',
      SIS_BEDROCK_MODEL_ID: settings.bedrockModelId,
      ...(guardrail
        ? { SIS_BEDROCK_GUARDRAIL_ID: guardrail.id, SIS_BEDROCK_GUARDRAIL_VERSION: guardrail.version }
        : {}),
      ...optional('SIS_ANALYST_MAX_TURNS', settings.analystMaxTurns),
      ...optional('SIS_ANALYST_MAX_TOOL_CALLS', settings.analystMaxToolCalls),
      ...optional('SIS_ANALYST_MAX_TOKENS', settings.analystMaxTokens),
      ...optional('SIS_ANALYST_MAX_SECONDS', settings.analystMaxSeconds),
      ...optional('SIS_BEDROCK_MONTHLY_TOKEN_BUDGET', settings.bedrockMonthlyTokenBudget),
    },
  };
}

export function analystModelStatements(
  scope: Construct,
  analyst: AnalystSettings,
): { statements: PolicyStatement[]; profileModel?: string } {
  const { partition, region, account } = Stack.of(scope);
  const bedrockArn = (regionPart: string, accountPart: string, resource: string) =>
    `arn:${partition}:bedrock:${regionPart}:${accountPart}:${resource}`;
  const statements: PolicyStatement[] = [];
  const id = analyst.modelId;
  let profileModel: string | undefined;
  if (id.startsWith('arn:')) {
    statements.push(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [id] }));
  } else if (PROFILE_PREFIX.test(id)) {
    const profileArn = bedrockArn(region, account, `inference-profile/${id}`);
    profileModel = id.replace(PROFILE_PREFIX, '');
    statements.push(
      new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [profileArn] }),
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [bedrockArn('*', '', `foundation-model/${profileModel}`)],
        conditions: { StringEquals: { 'bedrock:InferenceProfileArn': profileArn } },
      }),
    );
  } else {
    statements.push(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [bedrockArn(region, '', `foundation-model/${id}`)],
      }),
    );
  }
  if (analyst.guardrail) {
    const guardrailArn = analyst.guardrail.id.startsWith('arn:')
      ? analyst.guardrail.id
      : bedrockArn(region, account, `guardrail/${analyst.guardrail.id}`);
    statements.push(new PolicyStatement({ actions: ['bedrock:ApplyGuardrail'], resources: [guardrailArn] }));
  }
  return { statements, ...(profileModel ? { profileModel } : {}) };
}
