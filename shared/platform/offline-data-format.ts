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
  /** The brand catalogue (shared/domain/names/brand-catalogue.tsv, checked and parsed), JSON, gzip. */
  brands: 'names-brands.json.gz',
  /** Abused TLDs, lure words, crypto topic words (shared/domain/names/vocabulary.ts), JSON, gzip. */
  vocabulary: 'names-vocabulary.json.gz',
  /** UTS #39 prototypes of the characters that read as Latin letters or digits, JSON, gzip. */
  confusables: 'names-confusables.json.gz',
  /** English words with their SCOWL level, "word level" a line, gzip. */
  words: 'names-words.txt.gz',
  meta: 'meta.json',
} as const;

/**
 * The package the reader opens the country database with. The run-tool bundle does not carry it:
 * ServiceFunction ships the package as published in a `node_modules` folder beside every bundle
 * (infra/constructs/service-function.ts, besideBundleCommands), where Node's resolution from the
 * bundle finds it, so its code is parsed on the first IP lookup, not at every cold start.
 */
export const MMDB_READER_PACKAGE = 'mmdb-lib';

export const ASN_MAGIC = 'SISASN02';
export const ASN_HEADER_BYTES = 24;

export interface OfflineDataMeta {
  format: 1;
  ip_data_date: string;
  mail_data_date: string;
  sources: OfflineDataSource[];
}
