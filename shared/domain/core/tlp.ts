/**
 * Traffic Light Protocol 2.0 (FIRST): how far what an investigation is about may travel. Every
 * investigation carries one level (default amber); an intelligence connector declares the highest
 * level it may receive, and a lookup above it is never sent (docs/intel.md).
 */
export const TLP_LEVELS = ['clear', 'green', 'amber', 'amber+strict', 'red'] as const;
export type Tlp = (typeof TLP_LEVELS)[number];
export const DEFAULT_TLP: Tlp = 'amber';

const RANK: Record<Tlp, number> = { clear: 0, green: 1, amber: 2, 'amber+strict': 3, red: 4 };

export function isTlp(value: unknown): value is Tlp {
  return typeof value === 'string' && (TLP_LEVELS as readonly string[]).includes(value);
}

/** Whether information marked `level` may go to a recipient cleared up to `max`. */
export function tlpAllows(level: Tlp, max: Tlp): boolean {
  return RANK[level] <= RANK[max];
}

/** The level of a stored session; sessions recorded before TLP existed are amber. */
export function tlpOf(value: unknown): Tlp {
  return isTlp(value) ? value : DEFAULT_TLP;
}
