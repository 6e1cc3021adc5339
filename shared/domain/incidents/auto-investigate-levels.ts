/**
 * The lowest severity of an arriving incident that is investigated by itself
 * (SIS_AUTO_INVESTIGATE_SEVERITY; off: none). Its own module: the configuration, which every bundle
 * carries, reads it.
 */
export const AUTO_INVESTIGATE_LEVELS = ['off', 'medium', 'high', 'critical'] as const;
export type AutoInvestigateLevel = (typeof AUTO_INVESTIGATE_LEVELS)[number];
