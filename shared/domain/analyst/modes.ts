/**
 * Who writes an investigation's narrative: the rules engine alone, or the model on Amazon Bedrock
 * (docs/analyst.md). A deployment setting (SIS_ANALYST) that MarkActive hands to the run's steps.
 */
export const ANALYST_MODES = ['rules', 'bedrock'] as const;

export type AnalystMode = (typeof ANALYST_MODES)[number];
