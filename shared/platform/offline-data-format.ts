import type { OfflineDataSource } from '../domain/investigation/tools/enrichment';

/**
 * The offline-data directory's files and the ASN table's header, shared by the reader the run-tool
 * function carries (offline-intel.ts) and the builder that only runs at deployment and locally
 * (offline-intel-build.ts), so the function's bundle holds no build code.
 */
export const OFFLINE_DATA_FILES = {
  country: 'ip-country.mmdb',
  asn: 'ip-asn.bin',
  disposable: 'mail-disposable.txt',
  free: 'mail-free.txt',
  meta: 'meta.json',
} as const;

export const ASN_MAGIC = 'SISASN02';
export const ASN_HEADER_BYTES = 24;

export interface OfflineDataMeta {
  format: 1;
  ip_data_date: string;
  mail_data_date: string;
  sources: OfflineDataSource[];
}
