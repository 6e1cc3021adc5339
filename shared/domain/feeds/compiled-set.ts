import { gunzipSync, gzipSync } from 'node:zlib';
import { ipaddr } from '../core/ip-address';
import type { FeedIndex, FeedMatch, IndicatorDetails, IndicatorMeta, IndicatorVia } from '../core/vocabulary';
import type { FeedName } from './declarations';
import type { FeedIndicator, ParsedFeed } from './indicators';
import { isIpv4 } from './indicators';

/**
 * A feed's compiled indicator set: one gzip-compressed binary object per feed, written by the
 * refresh (S3 on AWS, a file locally) and loaded once per container by the tool step. IPv4 ranges
 * are sorted typed arrays, host names sorted bytes with an offset table, both searched in place
 * (binary search, no string per entry is ever built); IPv6 ranges (few) and the distinct details
 * are in a JSON header. A set of a million addresses or names is about 5 MB stored and loads with
 * one gunzip (npm run bench:feeds).
 *
 * Layout (before gzip): "SISFEED2", u32 header length, header JSON, padding to 4 bytes, then
 * v4 start[n4] v4 end[n4] v4 meta[n4] host meta[nh] host rank[nh if ranked] (all u32 LE), host
 * length[nh] (u8: a name is at most 253 bytes) padded to 4, host bytes (the sorted names back to
 * back). The lengths compress far better than offsets; the offsets are summed once at load.
 */

const MAGIC = 'SISFEED2';

export type { FeedMatch, IndicatorMeta };

interface Header {
  name: FeedName;
  compiled_at: string;
  generated_at?: string;
  notice?: string;
  counts: { v4: number; v6: number; hosts: number };
  ranked: boolean;
  host_bytes: number;
  meta: IndicatorMeta[];
  /** [start hex, end hex, meta index] sorted by start. */
  v6: [string, string, number][];
}

export interface FeedSetInfo {
  name: FeedName;
  compiled_at: string;
  generated_at?: string;
  notice?: string;
  indicator_count: number;
}

export interface FeedSet extends FeedSetInfo, FeedIndex {}

// ---- Addresses ----

export function ipv4ToUint(ip: string): number {
  const parts = ip.split('.');
  return ((+parts[0]! << 24) | (+parts[1]! << 16) | (+parts[2]! << 8) | +parts[3]!) >>> 0;
}

function uintToIpv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function ipv6Hex(ip: string): string {
  return ipaddr()
    .IPv6.parse(ip)
    .toByteArray()
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

function hexToIpv6(hex: string): string {
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 4) groups.push(hex.slice(i, i + 4));
  return ipaddr().IPv6.parse(groups.join(':')).toString();
}

type Range<T> = { start: T; end: T; meta: number };

function rangeOf(value: string): { v4?: Range<number>; v6?: Range<string> } {
  const slash = value.indexOf('/');
  const address = slash < 0 ? value : value.slice(0, slash);
  if (isIpv4(address)) {
    const start = ipv4ToUint(address);
    const bits = slash < 0 ? 32 : Number(value.slice(slash + 1));
    const size = 2 ** (32 - bits);
    return { v4: { start, end: start + size - 1, meta: 0 } };
  }
  if (slash < 0) {
    const hex = ipv6Hex(address);
    return { v6: { start: hex, end: hex, meta: 0 } };
  }
  const start = ipv6Hex(ipaddr().IPv6.networkAddressFromCIDR(value).toNormalizedString());
  const end = ipv6Hex(ipaddr().IPv6.broadcastAddressFromCIDR(value).toNormalizedString());
  return { v6: { start, end, meta: 0 } };
}

// ---- Compiling ----

const VIA_STRENGTH: Record<IndicatorVia, number> = { cidr: 3, address: 3, domain: 2, url_host: 1 };

function mergeDetails(a: IndicatorDetails | undefined, b: IndicatorDetails | undefined): IndicatorDetails {
  const out: IndicatorDetails = { ...(a ?? {}) };
  if (!b) return out;
  if (b.first_seen && (!out.first_seen || b.first_seen < out.first_seen)) out.first_seen = b.first_seen;
  if (b.last_seen && (!out.last_seen || b.last_seen > out.last_seen)) out.last_seen = b.last_seen;
  out.threat ??= b.threat;
  out.malware ??= b.malware;
  out.port ??= b.port;
  out.reference ??= b.reference;
  if (b.confidence !== undefined) out.confidence = Math.max(out.confidence ?? 0, b.confidence);
  if (b.tags?.length) out.tags = [...new Set([...(out.tags ?? []), ...b.tags])].slice(0, 10);
  if (b.urls) out.urls = (out.urls ?? 0) + b.urls;
  for (const key of Object.keys(out) as (keyof IndicatorDetails)[])
    if (out[key] === undefined) delete out[key];
  return out;
}

/** Indicators merged by value (a host listed by many URLs is one entry counting them). */
function mergeIndicators(indicators: readonly FeedIndicator[]): Map<string, FeedIndicator> {
  const byValue = new Map<string, FeedIndicator>();
  for (const indicator of indicators) {
    const known = byValue.get(indicator.value);
    if (!known) {
      byValue.set(indicator.value, indicator);
      continue;
    }
    const via = VIA_STRENGTH[indicator.via] > VIA_STRENGTH[known.via] ? indicator.via : known.via;
    const rank =
      known.rank === undefined
        ? indicator.rank
        : Math.min(known.rank, indicator.rank ?? Number.POSITIVE_INFINITY);
    const details =
      known.details || indicator.details ? mergeDetails(known.details, indicator.details) : undefined;
    byValue.set(indicator.value, {
      via,
      value: indicator.value,
      ...(details ? { details } : {}),
      ...(rank !== undefined ? { rank } : {}),
    });
  }
  return byValue;
}

/** Compiles parsed indicators into the stored form (gzip); `count` is the distinct indicators. */
export function compileFeedSet(
  name: FeedName,
  parsed: ParsedFeed,
  compiledAt: Date,
): { body: Buffer; count: number } {
  const meta: IndicatorMeta[] = [];
  const metaIndex = new Map<string, number>();
  const metaOf = (indicator: FeedIndicator): number => {
    const record: IndicatorMeta = { via: indicator.via, ...(indicator.details ?? {}) };
    const key = JSON.stringify(record);
    let index = metaIndex.get(key);
    if (index === undefined) {
      index = meta.length;
      meta.push(record);
      metaIndex.set(key, index);
    }
    return index;
  };
  const v4: Range<number>[] = [];
  const v6: Range<string>[] = [];
  const hosts: { host: string; meta: number; rank: number }[] = [];
  let ranked = false;
  for (const indicator of mergeIndicators(parsed.indicators).values()) {
    const isAddress =
      indicator.via === 'address' || indicator.via === 'cidr' || /^[\d.]+$|:/.test(indicator.value);
    if (isAddress) {
      const range = rangeOf(indicator.value);
      if (range.v4) v4.push({ ...range.v4, meta: metaOf(indicator) });
      if (range.v6) v6.push({ ...range.v6, meta: metaOf(indicator) });
    } else {
      if (indicator.rank !== undefined) ranked = true;
      hosts.push({ host: indicator.value, meta: metaOf(indicator), rank: indicator.rank ?? 0 });
    }
  }
  v4.sort((a, b) => a.start - b.start || a.end - b.end);
  v6.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.end < b.end ? -1 : 1));
  hosts.sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const hostText = Buffer.from(hosts.map((h) => h.host).join(''), 'latin1');
  const header: Header = {
    name,
    compiled_at: compiledAt.toISOString(),
    ...(parsed.generated_at ? { generated_at: parsed.generated_at } : {}),
    ...(parsed.notice ? { notice: parsed.notice } : {}),
    counts: { v4: v4.length, v6: v6.length, hosts: hosts.length },
    ranked,
    host_bytes: hostText.length,
    meta,
    v6: v6.map((r) => [r.start, r.end, r.meta]),
  };
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const headerEnd = Math.ceil((12 + headerBytes.length) / 4) * 4;
  const words = v4.length * 3 + hosts.length * (ranked ? 2 : 1);
  const lengthBytes = Math.ceil(hosts.length / 4) * 4;
  const out = Buffer.alloc(headerEnd + words * 4 + lengthBytes + hostText.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(out, 12);
  let at = headerEnd;
  const put = (value: number) => {
    out.writeUInt32LE(value, at);
    at += 4;
  };
  for (const r of v4) put(r.start);
  for (const r of v4) put(r.end);
  for (const r of v4) put(r.meta);
  for (const h of hosts) put(h.meta);
  if (ranked) for (const h of hosts) put(h.rank);
  for (const [i, h] of hosts.entries()) out[at + i] = h.host.length;
  at += lengthBytes;
  hostText.copy(out, at);
  return { body: gzipSync(out, { level: 6 }), count: v4.length + v6.length + hosts.length };
}

// ---- Loading and matching ----

function upperBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Reads a compiled set; throws when the object is not one. */
export function loadFeedSet(stored: Uint8Array): FeedSet {
  const raw = gunzipSync(stored);
  if (raw.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a compiled feed set of this version');
  const headerLength = raw.readUInt32LE(8);
  const header = JSON.parse(raw.toString('utf8', 12, 12 + headerLength)) as Header;
  const headerEnd = Math.ceil((12 + headerLength) / 4) * 4;
  // Typed-array views need 4-byte alignment: copy once when the decompressed buffer is not aligned.
  const buffer = raw.byteOffset % 4 === 0 ? raw : Buffer.from(raw);
  let at = buffer.byteOffset + headerEnd;
  const u32 = (n: number) => {
    const view = new Uint32Array(buffer.buffer, at, n);
    at += n * 4;
    return view;
  };
  const { v4: n4, hosts: nh, v6: n6 } = header.counts;
  const v4Start = u32(n4);
  const v4End = u32(n4);
  const v4Meta = u32(n4);
  const hostMeta = u32(nh);
  const hostRank = header.ranked ? u32(nh) : undefined;
  const hostOffset = new Uint32Array(nh + 1);
  for (let i = 0; i < nh; i++) hostOffset[i + 1] = hostOffset[i]! + buffer[at - buffer.byteOffset + i]!;
  at += Math.ceil(nh / 4) * 4;
  const textAt = at - buffer.byteOffset;
  const hostBytes = buffer.subarray(textAt, textAt + header.host_bytes);
  // Running maximum of the ends, so a lookup stops as soon as no earlier range can reach the address.
  const v4MaxEnd = new Uint32Array(n4);
  for (let i = 0, max = 0; i < n4; i++) {
    max = Math.max(max, v4End[i]!);
    v4MaxEnd[i] = max;
  }
  const v6 = header.v6;
  const metaAt = (i: number): IndicatorMeta => header.meta[i] ?? { via: 'address' };

  return {
    name: header.name,
    compiled_at: header.compiled_at,
    ...(header.generated_at ? { generated_at: header.generated_at } : {}),
    ...(header.notice ? { notice: header.notice } : {}),
    indicator_count: n4 + n6 + nh,
    matchIp(ip: string, limit = 5): FeedMatch[] {
      const out: FeedMatch[] = [];
      if (isIpv4(ip)) {
        const value = ipv4ToUint(ip);
        for (
          let i = upperBound(v4Start, value) - 1;
          i >= 0 && v4MaxEnd[i]! >= value && out.length < limit;
          i--
        ) {
          if (v4End[i]! < value) continue;
          const single = v4Start[i] === v4End[i];
          const size = v4End[i]! - v4Start[i]! + 1;
          const listed = single
            ? uintToIpv4(v4Start[i]!)
            : `${uintToIpv4(v4Start[i]!)}/${32 - Math.round(Math.log2(size))}`;
          out.push({ listed, meta: metaAt(v4Meta[i]!) });
        }
        return out;
      }
      if (n6 === 0 || !ip.includes(':')) return out;
      let hex: string;
      try {
        hex = ipv6Hex(ip);
      } catch {
        return out;
      }
      for (const [start, end, meta] of v6) {
        if (start > hex) break;
        if (end >= hex && out.length < limit) {
          const bits = start === end ? undefined : commonPrefixBits(start, end);
          out.push({
            listed: bits === undefined ? hexToIpv6(start) : `${hexToIpv6(start)}/${bits}`,
            meta: metaAt(meta),
          });
        }
      }
      return out;
    },
    matchHost(host: string): FeedMatch | undefined {
      // Names are ASCII (IDNs in punycode): byte order is the order they were sorted in.
      if (nh === 0 || /[^\x20-\x7e]/.test(host)) return undefined;
      const target = Buffer.from(host, 'latin1');
      let lo = 0;
      let hi = nh - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const order = hostBytes.compare(target, 0, target.length, hostOffset[mid], hostOffset[mid + 1]);
        if (order === 0) {
          const rank = hostRank?.[mid];
          return { listed: host, meta: metaAt(hostMeta[mid]!), ...(rank ? { rank } : {}) };
        }
        if (order < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return undefined;
    },
  };
}

function commonPrefixBits(startHex: string, endHex: string): number {
  let bits = 0;
  for (let i = 0; i < 32; i++) {
    const x = Number.parseInt(startHex[i]!, 16) ^ Number.parseInt(endHex[i]!, 16);
    if (x === 0) {
      bits += 4;
      continue;
    }
    return bits + (Math.clz32(x) - 28);
  }
  return bits;
}
