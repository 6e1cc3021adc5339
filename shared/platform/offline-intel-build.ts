import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OfflineDataSource } from '../domain/investigation/tools/enrichment';
import { buildNameDataFiles, nameDataInputs } from './name-data-build';
import { ASN_HEADER_BYTES, ASN_MAGIC, OFFLINE_DATA_FILES, type OfflineDataMeta } from './offline-data-format';

/**
 * Builds the offline-data directory the run-tool function ships (CDK bundling runs this after
 * esbuild; the local runtime builds it once into a cache directory on first use):
 *
 * - `ip-country.mmdb`: @ip-location-db/geo-whois-asn-country-mmdb as published (read with `mmdb-lib`);
 * - `ip-asn.bin`: @ip-location-db/asn's CSV ranges (IP → ASN, AS organisation) compiled into sorted
 *   arrays, because no redistributable MaxMind-format ASN database is on npm and parsing the CSV at
 *   cold start would take over a second and ~100 MB;
 * - `mail-disposable.txt`, `mail-free.txt`: disposable and free-mail domains, one a line;
 * - `meta.json`: the sources, their dates and licences.
 *
 * `ip-asn.bin` layout (little endian), laid out so the reader maps typed arrays over the file without
 * parsing anything: "SISASN02", u32 v4 count, u32 v6 count, u32 organisation count, u32 name bytes;
 * v4 starts, ends, ASNs (u32 arrays); zero padding to 8 bytes; v6 start-high, start-low, end-high,
 * end-low (u64 arrays), v6 ASNs (u32); organisation ASNs sorted (u32), name offsets (u32, count + 1),
 * then the UTF-8 names.
 */

const require = createRequire(import.meta.url);
// A variable, not a literal, so no bundler inlines the 2 MB list into a function's code.
const FREE_MAIL_MODULE = ['free-email-domains-list', 'build', 'src', 'constants'].join('/');

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

export function packageVersion(name: string): string {
  return (
    JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string }
  ).version;
}

/** @ip-location-db versions end in the build time, YYYYMMDDHH: 2.3.2026061719 → 2026-06-17. */
function ipLocationDbDate(version: string): string {
  const stamp = /(\d{4})(\d{2})(\d{2})\d{2}$/.exec(version);
  return stamp ? `${stamp[1]}-${stamp[2]}-${stamp[3]}` : 'unknown';
}

/**
 * Publication dates of the pinned list packages (from the registry, looked up when they were pinned);
 * a different installed version reads "unknown" until this table is updated with it.
 */
const LIST_RELEASES: Record<string, Record<string, string>> = {
  'disposable-email-domains-js': { '1.26.0': '2026-09-21' },
  'free-email-domains-list': { '1.0.16': '2026-05-07' },
};

function listDate(name: string): string {
  return LIST_RELEASES[name]?.[packageVersion(name)] ?? 'unknown';
}

/** Splits one line of the ASN CSV: start,end,asn,organisation (the organisation may be quoted). */
function parseAsnLine(line: string): [string, string, number, string] | undefined {
  const first = line.indexOf(',');
  const second = line.indexOf(',', first + 1);
  const third = line.indexOf(',', second + 1);
  if (first < 0 || second < 0 || third < 0) return undefined;
  let org = line.slice(third + 1);
  if (org.startsWith('"') && org.endsWith('"')) org = org.slice(1, -1).replaceAll('""', '"');
  const asn = Number(line.slice(second + 1, third));
  if (!Number.isInteger(asn)) return undefined;
  return [line.slice(0, first), line.slice(first + 1, second), asn, org];
}

const LOW64 = (1n << 64n) - 1n;

export function compileAsnRanges(v4Csv: string, v6Csv: string): Buffer {
  const orgs = new Map<number, string>();
  const v4: [number, number, number][] = [];
  for (const line of v4Csv.split('\n')) {
    const row = parseAsnLine(line.trim());
    if (!row) continue;
    const [start, end, asn, org] = row;
    v4.push([Number(start), Number(end), asn]);
    if (org && !orgs.has(asn)) orgs.set(asn, org);
  }
  const v6: [bigint, bigint, number][] = [];
  for (const line of v6Csv.split('\n')) {
    const row = parseAsnLine(line.trim());
    if (!row) continue;
    const [start, end, asn, org] = row;
    v6.push([BigInt(start), BigInt(end), asn]);
    if (org && !orgs.has(asn)) orgs.set(asn, org);
  }
  v4.sort((a, b) => a[0] - b[0]);
  v6.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const orgAsns = [...orgs.keys()].sort((a, b) => a - b);
  const names = orgAsns.map((asn) => Buffer.from(orgs.get(asn)!, 'utf8'));
  const blobBytes = names.reduce((n, b) => n + b.length, 0);

  const align8 = (n: number) => Math.ceil(n / 8) * 8;
  const v4At = ASN_HEADER_BYTES;
  const v6At = align8(v4At + v4.length * 12);
  const orgAt = v6At + v6.length * 36;
  const blobAt = orgAt + orgAsns.length * 8 + 4;
  const out = Buffer.alloc(blobAt + blobBytes);
  out.write(ASN_MAGIC, 0, 'latin1');
  out.writeUInt32LE(v4.length, 8);
  out.writeUInt32LE(v6.length, 12);
  out.writeUInt32LE(orgAsns.length, 16);
  out.writeUInt32LE(blobBytes, 20);
  let at = v4At;
  for (const column of [0, 1, 2] as const) {
    for (const row of v4) {
      out.writeUInt32LE(row[column], at);
      at += 4;
    }
  }
  at = v6At;
  for (const [column, shift] of [
    [0, 64n],
    [0, 0n],
    [1, 64n],
    [1, 0n],
  ] as const) {
    for (const row of v6) {
      out.writeBigUInt64LE((row[column] >> shift) & LOW64, at);
      at += 8;
    }
  }
  for (const row of v6) {
    out.writeUInt32LE(row[2], at);
    at += 4;
  }
  for (const asn of orgAsns) {
    out.writeUInt32LE(asn, at);
    at += 4;
  }
  let offset = 0;
  for (const name of names) {
    out.writeUInt32LE(offset, at);
    at += 4;
    offset += name.length;
  }
  out.writeUInt32LE(offset, at);
  at += 4;
  for (const name of names) {
    name.copy(out, at);
    at += name.length;
  }
  return out;
}

/** The packages the directory is built from, with their versions: a cache key. */
export function offlineDataInputs(): string {
  return [
    '@ip-location-db/asn',
    '@ip-location-db/geo-whois-asn-country-mmdb',
    'disposable-email-domains-js',
    'free-email-domains-list',
  ]
    .map((name) => `${name}@${packageVersion(name)}`)
    .concat(nameDataInputs(), `files:${Object.values(OFFLINE_DATA_FILES).join(',')}`)
    .join(' ');
}

/** Writes the whole directory; written next to it first and renamed, so readers never see half of it. */
export function buildOfflineData(outDir: string): OfflineDataMeta {
  const asnDir = packageDir('@ip-location-db/asn');
  const countryDir = packageDir('@ip-location-db/geo-whois-asn-country-mmdb');
  const disposableDir = packageDir('disposable-email-domains-js');
  const staging = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    copyFileSync(
      path.join(countryDir, 'geo-whois-asn-country.mmdb'),
      path.join(staging, OFFLINE_DATA_FILES.country),
    );
    writeFileSync(
      path.join(staging, OFFLINE_DATA_FILES.asn),
      compileAsnRanges(
        readFileSync(path.join(asnDir, 'asn-ipv4-num.csv'), 'utf8'),
        readFileSync(path.join(asnDir, 'asn-ipv6-num.csv'), 'utf8'),
      ),
    );
    const disposable = JSON.parse(
      readFileSync(path.join(disposableDir, 'dist', 'dict', 'disposable_email_blocklist.json'), 'utf8'),
    ) as string[];
    const { DOMAINS: free } = require(FREE_MAIL_MODULE) as {
      DOMAINS: Set<string>;
    };
    // One domain a line with a newline at both ends, so a lookup is one substring search.
    const lines = (domains: Iterable<string>) =>
      `\n${[...new Set([...domains].map((d) => d.trim().toLowerCase()).filter(Boolean))].sort().join('\n')}\n`;
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.disposable), lines(disposable));
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.free), lines(free));
    const names = buildNameDataFiles();
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.brands), names.files.brands);
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.vocabulary), names.files.vocabulary);
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.confusables), names.files.confusables);
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.words), names.files.words);

    const asnVersion = packageVersion('@ip-location-db/asn');
    const countryVersion = packageVersion('@ip-location-db/geo-whois-asn-country-mmdb');
    const sources: OfflineDataSource[] = [
      {
        name: 'IP to ASN and AS organisation',
        package: `@ip-location-db/asn@${asnVersion}`,
        date: ipLocationDbDate(asnVersion),
        licence: 'CC BY 4.0',
        attribution:
          'Route Views (routeviews.org), DB-IP IP to ASN Lite (https://db-ip.com), NRO statistics (nro.net)',
      },
      {
        name: 'IP to country',
        package: `@ip-location-db/geo-whois-asn-country-mmdb@${countryVersion}`,
        date: ipLocationDbDate(countryVersion),
        licence: 'CC BY 4.0',
        attribution: 'Number Resource Organization (nro.net) via sapics/ip-location-db',
      },
      {
        name: 'Disposable e-mail domains',
        package: `disposable-email-domains-js@${packageVersion('disposable-email-domains-js')}`,
        date: listDate('disposable-email-domains-js'),
        licence: 'CC0-1.0',
      },
      {
        name: 'Free e-mail provider domains',
        package: `free-email-domains-list@${packageVersion('free-email-domains-list')}`,
        date: listDate('free-email-domains-list'),
        licence: 'MIT',
      },
    ];
    const dates = (which: OfflineDataSource[]) => which.map((s) => s.date).sort()[0] ?? 'unknown';
    const meta: OfflineDataMeta = {
      format: 1,
      ip_data_date: dates(sources.slice(0, 2)),
      mail_data_date: dates(sources.slice(2)),
      sources: [...sources, ...names.sources],
    };
    writeFileSync(path.join(staging, OFFLINE_DATA_FILES.meta), JSON.stringify(meta, null, 2));
    try {
      renameSync(staging, outDir);
    } catch (error) {
      // Another process finished the same directory first: keep theirs.
      if (!existsSync(path.join(outDir, OFFLINE_DATA_FILES.meta))) throw error;
      rmSync(staging, { recursive: true, force: true });
    }
    return meta;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The local cache directory (built on first use, ~5 s once), keyed by the data packages' versions so
 * an upgrade rebuilds it. The local runtime points SIS_OFFLINE_DATA_DIR at it; on AWS the variable
 * names the directory shipped with the run-tool function.
 */
export function localDataDir(): string {
  const key = createHash('sha256').update(offlineDataInputs()).digest('hex').slice(0, 12);
  const dir = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'sis-offline-data', key);
  if (!existsSync(path.join(dir, OFFLINE_DATA_FILES.meta))) buildOfflineData(dir);
  return dir;
}
