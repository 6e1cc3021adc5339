/**
 * Parts of the investigation vocabulary (vocabulary/index.ts re-exports them) that depend on nothing else:
 * what a risk score rests on, and an allowlist entry as the tools see it.
 */

/**
 * One independent piece of what an entity's risk score rests on: the source, the points it gave and
 * the incidents or entities it depends on (`inc_…` IDs, `<type>:<value>` keys). An entry with no refs
 * is intrinsic to the entity (its name, its network, an intelligence answer about it).
 */
export interface RiskBasisEntry {
  source: string;
  score: number;
  refs: string[];
}

/** An allowlist entry that covers the investigated entity (shared/domain/tenant-knowledge). */
export interface AllowlistMatch {
  entry_id: string;
  type: string;
  value: string;
  reason: string;
  created_by: string;
  created_at: string;
  expires_at?: string | null;
}
