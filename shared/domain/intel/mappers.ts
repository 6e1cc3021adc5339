import { misp, otx, threatfox, urlhaus, virustotal } from './mappers-indicators';
import { abuseipdb, crowdsec, greynoise, internetdb } from './mappers-ip-reputation';

export { threatfoxIocMatches } from './mappers-indicators';
export type { IntelFinding, IntelResult } from './mapping';
export { VERDICT_SCORES } from './mapping';

/**
 * Pure mappers from each provider's documented answer to the service's vocabulary: one normalised
 * verdict per source (malicious / suspicious / benign / unknown), a finding saying so with the
 * evidence behind it, and compact facts. A documented "not found" maps to `unknown`: it is an
 * answer. Thresholds follow the peers (Cortex maps AbuseIPDB ≥ 75 to malicious, > 0 to suspicious)
 * and are listed per source in docs/intel.md.
 */

export const MAPPERS = {
  abuseipdb,
  greynoise,
  internetdb,
  urlhaus,
  threatfox,
  otx,
  crowdsec,
  virustotal,
  misp,
} as const;
