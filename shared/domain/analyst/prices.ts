/**
 * On-demand list prices of Bedrock models the analyst is likely to run on, in USD per million
 * tokens (input, output), for the estimate in each report. Source: the "On-Demand" tables of
 * https://aws.amazon.com/bedrock/pricing/ for US East (N. Virginia), as listed there for these model
 * families when this table was written (2026-11); not re-checked against the live page by the
 * service. Cross-region inference profiles (`us.`, `eu.`, `global.`) bill at the source region's
 * price; other regions and batch or provisioned throughput differ. Update the table, not the code.
 */
export const PRICE_SOURCE =
  'aws.amazon.com/bedrock/pricing, on-demand, us-east-1, list prices as tabulated in shared/domain/analyst/prices.ts';

export interface ModelPrice {
  /** Matched against the model ID without region prefix or ARN, by prefix. */
  modelPrefix: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

export const MODEL_PRICES: readonly ModelPrice[] = [
  { modelPrefix: 'anthropic.claude-3-haiku', inputPerMillion: 0.25, outputPerMillion: 1.25 },
  { modelPrefix: 'anthropic.claude-3-5-haiku', inputPerMillion: 0.8, outputPerMillion: 4 },
  { modelPrefix: 'anthropic.claude-haiku-4-5', inputPerMillion: 1, outputPerMillion: 5 },
  { modelPrefix: 'anthropic.claude-3-5-sonnet', inputPerMillion: 3, outputPerMillion: 15 },
  { modelPrefix: 'anthropic.claude-3-7-sonnet', inputPerMillion: 3, outputPerMillion: 15 },
  { modelPrefix: 'anthropic.claude-sonnet-4', inputPerMillion: 3, outputPerMillion: 15 },
  { modelPrefix: 'anthropic.claude-opus-4', inputPerMillion: 15, outputPerMillion: 75 },
  { modelPrefix: 'amazon.nova-micro', inputPerMillion: 0.035, outputPerMillion: 0.14 },
  { modelPrefix: 'amazon.nova-lite', inputPerMillion: 0.06, outputPerMillion: 0.24 },
  { modelPrefix: 'amazon.nova-pro', inputPerMillion: 0.8, outputPerMillion: 3.2 },
  { modelPrefix: 'meta.llama3-1-8b-instruct', inputPerMillion: 0.22, outputPerMillion: 0.22 },
  { modelPrefix: 'meta.llama3-1-70b-instruct', inputPerMillion: 0.72, outputPerMillion: 0.72 },
  { modelPrefix: 'mistral.mistral-large-2407', inputPerMillion: 2, outputPerMillion: 6 },
];

/** `us.anthropic.claude-…`, `arn:aws:bedrock:…:inference-profile/eu.amazon.nova-…` → the base model ID. */
export function baseModelId(modelId: string): string {
  const id = modelId.includes('/') ? modelId.slice(modelId.lastIndexOf('/') + 1) : modelId;
  return id.replace(/^(us|eu|apac|us-gov|jp|au|ca|global)\./, '');
}

export function priceFor(modelId: string): ModelPrice | undefined {
  const base = baseModelId(modelId);
  return [...MODEL_PRICES]
    .sort((a, b) => b.modelPrefix.length - a.modelPrefix.length)
    .find((price) => base.startsWith(price.modelPrefix));
}

/** Estimated cost in USD (6 decimals), or null when the model is not in the table. */
export function estimateCostUsd(modelId: string, inputTokens: number, outputTokens: number): number | null {
  const price = priceFor(modelId);
  if (!price) return null;
  const usd = (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}
