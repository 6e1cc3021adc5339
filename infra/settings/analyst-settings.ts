import { z } from 'zod';
import { ANALYST_MODES } from '../../shared/domain/analyst/modes';
import { COGNITO_RESERVED_WORDS, cognitoReservedWordIn } from '../naming';
import { consoleIdentityProviderSchema, jsonContext } from './context-values';
import { declare } from './declare';

/** The analyst on Amazon Bedrock (docs/analyst.md) and the console's sign-in (docs/console.md). */
export const ANALYST_SETTINGS = {
  analyst: declare({
    schema: z.enum(ANALYST_MODES).default('rules'),
    docs: {
      default: '`rules`',
      meaning:
        '`bedrock`: a model on Amazon Bedrock writes the narrative, falling back to the rules on any failure ([analyst.md](analyst.md)).',
    },
    variable: { name: 'SIS_ANALYST', on: 'analyst steps and investigation starters' },
  }),
  bedrockModelId: declare({
    schema: z
      .string()
      .regex(/^[A-Za-z0-9:/._-]{3,2048}$/, 'must be a Bedrock model ID, inference-profile ID or ARN')
      .optional(),
    docs: {
      default: 'none',
      meaning:
        'With `analyst=bedrock` (required): a foundation model ID, a cross-region inference profile ID or an ARN of either; the analyst step may invoke that model only.',
    },
    variable: { name: 'SIS_BEDROCK_MODEL_ID', on: 'analyst steps and investigation starters' },
  }),
  bedrockGuardrailId: declare({
    schema: z
      .string()
      .regex(
        /^([a-z0-9]{1,64}|arn:aws[a-z-]*:bedrock:[a-z0-9-]+:\d{12}:guardrail\/[a-z0-9]+)$/,
        'must be a guardrail ID or ARN',
      )
      .optional(),
    docs: { default: 'none', meaning: 'A Bedrock guardrail ID or ARN; with `bedrockGuardrailVersion`.' },
    variable: { name: 'SIS_BEDROCK_GUARDRAIL_ID', on: 'analyst steps and investigation starters' },
  }),
  bedrockGuardrailVersion: declare({
    schema: z
      .string()
      .regex(/^(DRAFT|[1-9][0-9]{0,7})$/, 'must be DRAFT or a version number')
      .optional(),
    docs: {
      default: 'none',
      meaning: "The guardrail's version, `DRAFT` or a number; with `bedrockGuardrailId`.",
    },
    variable: { name: 'SIS_BEDROCK_GUARDRAIL_VERSION', on: 'analyst steps and investigation starters' },
  }),
  analystMaxTurns: declare({
    schema: z.coerce.number().int().min(1).max(20).optional(),
    docs: { default: '6', meaning: 'Model turns per investigation (1–20).' },
    variable: { name: 'SIS_ANALYST_MAX_TURNS', on: 'analyst steps and investigation starters' },
  }),
  analystMaxToolCalls: declare({
    schema: z.coerce.number().int().min(0).max(30).optional(),
    docs: { default: '8', meaning: 'Lookups the model may request per investigation (0–30).' },
    variable: { name: 'SIS_ANALYST_MAX_TOOL_CALLS', on: 'analyst steps and investigation starters' },
  }),
  analystMaxTokens: declare({
    schema: z.coerce.number().int().min(1000).max(1_000_000).optional(),
    docs: { default: '60000', meaning: 'Tokens per investigation (1,000–1,000,000).' },
    variable: { name: 'SIS_ANALYST_MAX_TOKENS', on: 'analyst steps and investigation starters' },
  }),
  analystMaxSeconds: declare({
    schema: z.coerce.number().int().min(10).max(1800).optional(),
    docs: { default: '300', meaning: "The analyst's wall time per investigation (10–1800 s)." },
    variable: { name: 'SIS_ANALYST_MAX_SECONDS', on: 'analyst steps and investigation starters' },
  }),
  bedrockMonthlyTokenBudget: declare({
    schema: z.coerce.number().int().min(1).max(1e12).optional(),
    docs: {
      default: 'none',
      meaning:
        "With `analyst=bedrock`: the tenant's Bedrock tokens per calendar month; past it the rules narrative, an alarm at 80 % ([analyst.md](analyst.md#failures-and-budgets)).",
    },
    variable: { name: 'SIS_BEDROCK_MONTHLY_TOKEN_BUDGET', on: 'analyst steps and investigation starters' },
  }),
  consoleDomainPrefix: declare({
    schema: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'must be lowercase letters, digits and dashes')
      .refine((prefix) => !cognitoReservedWordIn(prefix), {
        error: `must not contain ${COGNITO_RESERVED_WORDS.join(', ')}: Cognito refuses them in a domain prefix`,
      })
      .optional(),
    docs: {
      default: '`sis-<tenant>-console`',
      meaning:
        "Prefix of the console's Cognito domain (`https://<prefix>.auth.<region>.amazoncognito.com`), unique per region across AWS accounts ([console.md](console.md)).",
    },
  }),
  consoleIdentityProvider: declare({
    schema: z.preprocess(jsonContext, consoleIdentityProviderSchema).optional(),
    docs: {
      default: 'none (Cognito users only)',
      meaning:
        "The tenant's own identity provider for the console, a JSON object: OIDC with its client secret in Secrets Manager, or SAML with its metadata URL ([console.md](console.md)).",
    },
  }),
};
