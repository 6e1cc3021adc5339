/**
 * The critical assets' vocabulary and limits, without code (the console's form reads them;
 * critical-assets.ts validates and normalises).
 */
export const CRITICAL_ASSET_TYPES = ['host', 'user'] as const;
export type CriticalAssetType = (typeof CRITICAL_ASSET_TYPES)[number];
export const MAX_OWNER_LENGTH = 200;
