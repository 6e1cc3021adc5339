/**
 * The offline data port (implemented by platform/offline-intel.ts, judged by
 * investigation/tools/enrichment.ts): what the service knows about an address or a mail domain
 * without calling anybody. Part of the investigation vocabulary (vocabulary/index.ts re-exports it).
 */

export interface OfflineDataSource {
  /** What the data says, e.g. "IP to ASN and AS organisation". */
  name: string;
  /** The npm package (and version) the data comes from. */
  package: string;
  /** When the data was built (YYYY-MM-DD). */
  date: string;
  licence: string;
  /** The attribution the licence asks for, when it asks for one. */
  attribution?: string;
}

export interface IpIntel {
  asn: number | null;
  as_org: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
}

export interface MailDomainIntel {
  disposable: boolean;
  free: boolean;
}

/** The offline data, as the tools see it. Lookups never throw for "not found": they return nulls. */
export interface OfflineIntel {
  ip(address: string): IpIntel;
  mailDomain(domain: string): MailDomainIntel;
  /** Date of the IP data (the older of the ASN and country data), YYYY-MM-DD. */
  ipDataDate: string;
  mailDataDate: string;
  sources: readonly OfflineDataSource[];
}
