import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type * as IpAddr from 'ipaddr.js';
import type * as MmdbLib from 'mmdb-lib';
import type { Reader, Response } from 'mmdb-lib';
import { ipaddr } from '../domain/core/ip-address';
import {
  domainAndParents,
  type IpIntel,
  type MailDomainIntel,
  type OfflineIntel,
} from '../domain/investigation/tools/enrichment';
import type { Brand } from '../domain/names/brand-catalogue';
import {
  buildNameData,
  type NameData,
  type NameDataInput,
  type NameDataSource,
} from '../domain/names/name-data';
import {
  ASN_HEADER_BYTES,
  ASN_MAGIC,
  MMDB_READER_PACKAGE,
  OFFLINE_DATA_FILES,
  type OfflineDataMeta,
} from './offline-data-format';

/**
 * The offline data, read from the directory the run-tool function ships (`SIS_OFFLINE_DATA_DIR`,
 * set by the stack) or, locally, from a cache directory built from the installed packages
 * (offline-intel-build.ts, which no function bundle carries). Loaded lazily, once per process (cold
 * start): the first lookup reads ~17 MB of files, later ones are binary searches in memory. Only the
 * run-tool handler imports this module.
 */

/**
 * mmdb-lib, loaded on the first IP lookup: a Lambda bundle does not carry it but finds it in the
 * `node_modules` folder shipped beside it (MMDB_READER_PACKAGE says how); unbundled runs resolve the
 * installed package. The require is made through `createRequire` so esbuild leaves it alone.
 */
let mmdbLib: typeof MmdbLib | undefined;
function mmdbReader(database: Buffer): Reader<Response> {
  mmdbLib ??= createRequire(import.meta.url)(MMDB_READER_PACKAGE) as typeof MmdbLib;
  return new mmdbLib.Reader(database);
}

interface AsnTable {
  v4Start: Uint32Array;
  v4End: Uint32Array;
  v4Asn: Uint32Array;
  v6StartHi: BigUint64Array;
  v6StartLo: BigUint64Array;
  v6EndHi: BigUint64Array;
  v6EndLo: BigUint64Array;
  v6Asn: Uint32Array;
  orgAsn: Uint32Array;
  orgOffset: Uint32Array;
  names: Buffer;
}

/** Typed-array views over the file (no parsing); see offline-intel-build.ts for the layout. */
export function readAsnTable(file: Buffer): AsnTable {
  if (file.toString('latin1', 0, 8) !== ASN_MAGIC) throw new Error('not an ASN table of this version');
  // Views need 8-byte alignment: a large read sits at offset 0 of its own memory, else copy once.
  const buffer = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const v4 = buffer.readUInt32LE(8);
  const v6 = buffer.readUInt32LE(12);
  const orgs = buffer.readUInt32LE(16);
  let at = buffer.byteOffset + ASN_HEADER_BYTES;
  const u32 = (n: number) => {
    const view = new Uint32Array(buffer.buffer, at, n);
    at += n * 4;
    return view;
  };
  const u64 = (n: number) => {
    const view = new BigUint64Array(buffer.buffer, at, n);
    at += n * 8;
    return view;
  };
  const v4Start = u32(v4);
  const v4End = u32(v4);
  const v4Asn = u32(v4);
  at = buffer.byteOffset + Math.ceil((at - buffer.byteOffset) / 8) * 8;
  const v6StartHi = u64(v6);
  const v6StartLo = u64(v6);
  const v6EndHi = u64(v6);
  const v6EndLo = u64(v6);
  const v6Asn = u32(v6);
  const orgAsn = u32(orgs);
  const orgOffset = u32(orgs + 1);
  const namesAt = at - buffer.byteOffset;
  return {
    v4Start,
    v4End,
    v4Asn,
    v6StartHi,
    v6StartLo,
    v6EndHi,
    v6EndLo,
    v6Asn,
    orgAsn,
    orgOffset,
    names: buffer.subarray(namesAt, namesAt + orgOffset[orgs]!),
  };
}

export function asOrgOf(table: AsnTable, asn: number): string | null {
  const i = lastAtOrBefore(table.orgAsn.length, (k) => table.orgAsn[k]! > asn);
  if (i < 0 || table.orgAsn[i] !== asn) return null;
  return table.names.toString('utf8', table.orgOffset[i], table.orgOffset[i + 1]);
}

/** Index of the last range starting at or before the address, or -1. */
function lastAtOrBefore(count: number, startsAfter: (i: number) => boolean): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (startsAfter(mid)) hi = mid - 1;
    else {
      found = mid;
      lo = mid + 1;
    }
  }
  return found;
}

export function asnOf(table: AsnTable, address: string): number | null {
  const parsed = ipaddr().parse(address);
  if (parsed.kind() === 'ipv4') {
    const value = (parsed as IpAddr.IPv4).toByteArray().reduce((n, b) => n * 256 + b, 0);
    const i = lastAtOrBefore(table.v4Start.length, (k) => table.v4Start[k]! > value);
    return i >= 0 && table.v4End[i]! >= value ? table.v4Asn[i]! : null;
  }
  const bytes = (parsed as IpAddr.IPv6).toByteArray();
  const hex = (from: number) =>
    BigInt(
      `0x${bytes
        .slice(from, from + 8)
        .map((b) => b.toString(16).padStart(2, '0'))
        .join('')}`,
    );
  const hi = hex(0);
  const lo = hex(8);
  const after = (aHi: bigint, aLo: bigint) => aHi > hi || (aHi === hi && aLo > lo);
  const i = lastAtOrBefore(table.v6StartHi.length, (k) => after(table.v6StartHi[k]!, table.v6StartLo[k]!));
  if (i < 0) return null;
  return after(table.v6EndHi[i]!, table.v6EndLo[i]!) || (table.v6EndHi[i] === hi && table.v6EndLo[i] === lo)
    ? table.v6Asn[i]!
    : null;
}

/** Reads each data set on its first use: a user investigation never loads the IP data. */
class FileOfflineIntel implements OfflineIntel, NameDataSource {
  readonly ipDataDate: string;
  readonly mailDataDate: string;
  readonly sources: OfflineDataMeta['sources'];
  private ipData?: { country: Reader<Response>; asn: AsnTable };
  private mailData?: { disposable: string; free: string };
  private nameData?: NameData;

  constructor(private readonly dir: string) {
    const meta = JSON.parse(readFileSync(path.join(dir, OFFLINE_DATA_FILES.meta), 'utf8')) as OfflineDataMeta;
    this.ipDataDate = meta.ip_data_date;
    this.mailDataDate = meta.mail_data_date;
    this.sources = meta.sources;
  }

  private file(name: string): Buffer {
    return readFileSync(path.join(this.dir, name));
  }

  ip(address: string): IpIntel {
    this.ipData ??= {
      country: mmdbReader(this.file(OFFLINE_DATA_FILES.country)),
      asn: readAsnTable(this.file(OFFLINE_DATA_FILES.asn)),
    };
    const asn = asnOf(this.ipData.asn, address);
    // ip-location-db's country databases hold {country_code}, not MaxMind's GeoIP2 shape.
    const country = (this.ipData.country.get(address) as { country_code?: unknown } | null)?.country_code;
    return {
      asn,
      as_org: asn === null ? null : asOrgOf(this.ipData.asn, asn),
      country: typeof country === 'string' && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : null,
    };
  }

  /** ~1 MB unpacked, ~40 ms: read on the first domain a process analyses. */
  names(): NameData {
    if (!this.nameData) {
      const text = (name: string) => gunzipSync(this.file(name)).toString('utf8');
      const words = new Map<string, number>();
      for (const line of text(OFFLINE_DATA_FILES.words).split('\n')) {
        const space = line.indexOf(' ');
        if (space > 0) words.set(line.slice(0, space), Number(line.slice(space + 1)));
      }
      this.nameData = buildNameData({
        brands: JSON.parse(text(OFFLINE_DATA_FILES.brands)) as Brand[],
        vocabulary: JSON.parse(text(OFFLINE_DATA_FILES.vocabulary)) as NameDataInput['vocabulary'],
        confusables: JSON.parse(text(OFFLINE_DATA_FILES.confusables)) as Record<string, string>,
        words,
      });
    }
    return this.nameData;
  }

  mailDomain(domain: string): MailDomainIntel {
    this.mailData ??= {
      disposable: this.file(OFFLINE_DATA_FILES.disposable).toString('utf8'),
      free: this.file(OFFLINE_DATA_FILES.free).toString('utf8'),
    };
    const { disposable, free } = this.mailData;
    const name = domain.toLowerCase();
    return {
      // A subdomain of a disposable service is disposable too (they hand out random subdomains).
      disposable: domainAndParents(name).some((d) => disposable.includes(`\n${d}\n`)),
      free: free.includes(`\n${name}\n`),
    };
  }
}

let shared: { dir: string; intel: OfflineIntel } | undefined;

/**
 * The process's offline data, from SIS_OFFLINE_DATA_DIR: the directory shipped with the function on
 * AWS, the local cache (offline-intel-build.ts, localDataDir) in the local runtime. Unset, there is
 * no data: the caller degrades the enrichment. Only meta.json is read here; each data set is read
 * on its first lookup.
 */
export function offlineIntel(dir: string | undefined): OfflineIntel {
  if (!dir) throw new Error('SIS_OFFLINE_DATA_DIR is not set: no offline enrichment data');
  if (shared?.dir !== dir) shared = { dir, intel: new FileOfflineIntel(dir) };
  return shared.intel;
}

export function openOfflineIntel(dir: string): OfflineIntel & NameDataSource {
  return new FileOfflineIntel(dir);
}
