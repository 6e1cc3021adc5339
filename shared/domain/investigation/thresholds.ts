/**
 * The risk scores at which a verdict becomes suspicious or malicious. Kept apart from scoring.ts so the
 * web console can colour the graph by the same bands without bundling the scoring (and ATT&CK data).
 */
export const VERDICT_THRESHOLDS = { malicious: 70, suspicious: 30 } as const;
