/**
 * The native SIEM formats the service maps (index.ts). Apart from the mappers, so the API schemas
 * and the stack can name the formats without importing the mappers' own record schemas.
 */
export const SIEM_FORMATS = ['sentinel', 'splunk', 'elastic'] as const;
export type SiemFormat = (typeof SIEM_FORMATS)[number];
