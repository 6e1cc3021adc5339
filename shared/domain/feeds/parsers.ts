import { stripControlOrInvisible } from '../core/entity-normalisation';
import { FeedContentError } from './acceptance';
import {
  canonicalCidr,
  canonicalHost,
  canonicalIp,
  type FeedIndicator,
  type IndicatorDetails,
  isoTime,
  listedHost,
  type ParsedFeed,
  urlHostIndicator,
} from './indicators';
import type { FeedFormat } from './sources';
import { unzipFirst } from './unzip-first';

/**
 * One pure parser per documented format (docs/feeds.md, ../shared/research/feeds.md), from the
 * downloaded bytes to indicators. A parser never throws on a bad row: it counts it as rejected, and
 * the refresh treats a file with no valid indicator as an error (the last good copy stays).
 */

/** `maxBytes`: the feed's byte cap, which also bounds what an archive may inflate to. */
type Parser = (body: Uint8Array, maxBytes: number) => ParsedFeed;

const decoder = new TextDecoder('utf-8', { fatal: true });
/** Every format is UTF-8 text: anything else (random bytes, a binary page) is refused whole. */
function text(body: Uint8Array): string {
  try {
    return decoder.decode(body);
  } catch {
    throw new FeedContentError('the download is not UTF-8 text, as the feed\u2019s format is');
  }
}

function lines(body: string): string[] {
  return body.split(/\r?\n/);
}

function empty(): ParsedFeed {
  return { indicators: [], rejected: 0, skipped: 0 };
}

// ---- Spamhaus DROP ----

/**
 * `drop_v4.json` / `drop_v6.json`: one JSON object a line, `{"cidr","sblid","rir"}`, and a last line
 * `{"type":"metadata","timestamp",...,"copyright","terms"}`. The older `drop.txt`: `CIDR ; SBLnnn`
 * with `;` comment lines. Several files (v4 and v6) are simply concatenated.
 */
export function parseSpamhausDrop(body: Uint8Array): ParsedFeed {
  const out = empty();
  for (const raw of lines(text(body))) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('{')) {
      let row: Record<string, unknown>;
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.rejected++;
        continue;
      }
      if (row.type === 'metadata') {
        const at = isoTime(row.timestamp);
        if (at && (!out.generated_at || at > out.generated_at)) out.generated_at = at;
        const notice = [row.copyright, row.terms].filter((v) => typeof v === 'string').join(' ');
        if (notice) out.notice = notice.slice(0, 500);
        continue;
      }
      const cidr = typeof row.cidr === 'string' ? canonicalCidr(row.cidr) : undefined;
      if (!cidr) {
        out.rejected++;
        continue;
      }
      const reference = typeof row.sblid === 'string' ? row.sblid : undefined;
      out.indicators.push({ via: 'cidr', value: cidr, ...(reference ? { details: { reference } } : {}) });
      continue;
    }
    const [network, rest] = line.split(';', 2).map((part) => part.trim());
    const cidr = network ? canonicalCidr(network) : undefined;
    if (!cidr) {
      out.rejected++;
      continue;
    }
    const reference = rest?.match(/SBL\d+/)?.[0];
    out.indicators.push({ via: 'cidr', value: cidr, ...(reference ? { details: { reference } } : {}) });
  }
  return out;
}

// ---- Feodo Tracker ----

/**
 * `ipblocklist.json`: an array of `{ip_address, port, status, hostname, as_number, as_name, country,
 * first_seen, last_online, malware}`; or the `.txt` list (`#` comments, one IP a line).
 */
export function parseFeodo(body: Uint8Array): ParsedFeed {
  const content = text(body).trim();
  if (!content.startsWith('[')) return parseIpLines(body);
  const out = empty();
  let rows: unknown;
  try {
    rows = JSON.parse(content);
  } catch {
    out.rejected++;
    return out;
  }
  if (!Array.isArray(rows)) {
    out.rejected++;
    return out;
  }
  for (const row of rows as Record<string, unknown>[]) {
    const ip = typeof row?.ip_address === 'string' ? canonicalIp(row.ip_address.trim()) : undefined;
    if (!ip) {
      out.rejected++;
      continue;
    }
    const details: IndicatorDetails = {};
    const first = isoTime(row.first_seen);
    const last = isoTime(row.last_online);
    if (first) details.first_seen = first;
    if (last) details.last_seen = last;
    if (typeof row.malware === 'string' && row.malware) details.malware = row.malware;
    if (typeof row.status === 'string' && row.status) details.threat = row.status;
    const port = Number(row.port);
    if (Number.isInteger(port) && port > 0 && port < 65536) details.port = port;
    out.indicators.push({ via: 'address', value: ip, details });
  }
  return out;
}

// ---- CSV (abuse.ch dumps) ----

/** One CSV line: `"a","b, c",d` or `"a", "b"` (ThreatFox puts a space after each comma). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    while (line[i] === ' ') i++;
    if (line[i] === '"') {
      let value = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else value += line[i++];
      }
      out.push(value);
      while (i < line.length && line[i] !== ',') i++;
    } else {
      const end = line.indexOf(',', i);
      out.push(line.slice(i, end < 0 ? line.length : end).trim());
      i = end < 0 ? line.length : end;
    }
    if (i >= line.length) break;
    i++; // the comma
    if (i === line.length) {
      out.push('');
      break;
    }
  }
  return out;
}

/** The column names of a `#`-commented header line (`# id,dateadded,url,...`), if present. */
function commentHeader(commentLines: string[], expect: string): string[] | undefined {
  for (const line of commentLines) {
    const body = line.replace(/^#\s*/, '');
    if (body.split(',')[0]?.trim() === expect) return csvFields(body).map((c) => c.trim());
  }
  return undefined;
}

function csvRows(body: Uint8Array): { header: string[] | undefined; comments: string[]; rows: string[] } {
  const comments: string[] = [];
  const rows: string[] = [];
  for (const raw of lines(text(body))) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('#')) comments.push(line);
    else rows.push(line);
  }
  return { header: undefined, comments, rows };
}

const URLHAUS_COLUMNS = [
  'id',
  'dateadded',
  'url',
  'url_status',
  'last_online',
  'threat',
  'tags',
  'urlhaus_link',
  'reporter',
];

/** URLhaus `recent.csv`: `#` comment lines (title, terms, the column header), then quoted rows. */
export function parseUrlhausCsv(body: Uint8Array): ParsedFeed {
  const out = empty();
  const { comments, rows } = csvRows(body);
  const header = commentHeader(comments, 'id') ?? URLHAUS_COLUMNS;
  const at = (name: string) => header.indexOf(name);
  const generated = comments.map((c) => c.match(/Last updated:\s*(.+)$/i)?.[1]).find(Boolean);
  if (generated) {
    const iso = isoTime(generated.replace(/\s*\(UTC\)\s*$/i, '').trim());
    if (iso) out.generated_at = iso;
  }
  for (const row of rows) {
    const fields = csvFields(row);
    const url = fields[at('url')];
    if (fields.length < 3 || !url) {
      out.rejected++;
      continue;
    }
    const details: IndicatorDetails = { urls: 1 };
    const first = isoTime(fields[at('dateadded')]);
    const last = isoTime(fields[at('last_online')]);
    if (first) details.first_seen = first;
    if (last) details.last_seen = last;
    const threat = fields[at('threat')];
    if (threat) details.threat = threat;
    const tags = fields[at('tags')];
    if (tags && tags !== 'None')
      details.tags = tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    const id = fields[at('id')];
    if (id) details.reference = `urlhaus:${id}`;
    const indicator = urlHostIndicator(url, details);
    if (indicator) out.indicators.push(indicator);
    else out.rejected++;
  }
  return out;
}

// ---- ThreatFox ----

const THREATFOX_COLUMNS = [
  'first_seen_utc',
  'ioc_id',
  'ioc_value',
  'ioc_type',
  'threat_type',
  'fk_malware',
  'malware_alias',
  'malware_printable',
  'last_seen_utc',
  'confidence_level',
  'reference',
  'tags',
  'anonymous',
  'reporter',
];

interface ThreatFoxRow {
  ioc_value?: unknown;
  ioc_type?: unknown;
  ioc_id?: unknown;
  threat_type?: unknown;
  malware_printable?: unknown;
  first_seen_utc?: unknown;
  last_seen_utc?: unknown;
  confidence_level?: unknown;
  tags?: unknown;
}

function threatFoxIndicator(row: ThreatFoxRow, out: ParsedFeed): void {
  const value = typeof row.ioc_value === 'string' ? row.ioc_value.trim() : '';
  const type = typeof row.ioc_type === 'string' ? row.ioc_type.trim() : '';
  if (!value || !type) {
    out.rejected++;
    return;
  }
  const details: IndicatorDetails = {};
  const first = isoTime(row.first_seen_utc);
  const last = isoTime(row.last_seen_utc);
  if (first) details.first_seen = first;
  if (last) details.last_seen = last;
  if (typeof row.threat_type === 'string' && row.threat_type) details.threat = row.threat_type;
  if (typeof row.malware_printable === 'string' && row.malware_printable && row.malware_printable !== 'None')
    details.malware = row.malware_printable;
  const confidence = Number(row.confidence_level);
  if (Number.isFinite(confidence) && confidence >= 0 && confidence <= 100) details.confidence = confidence;
  const tags = Array.isArray(row.tags) ? row.tags.join(',') : typeof row.tags === 'string' ? row.tags : '';
  if (tags && tags !== 'None')
    details.tags = tags
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean)
      .slice(0, 10);
  if (row.ioc_id !== undefined && row.ioc_id !== '') details.reference = `threatfox:${String(row.ioc_id)}`;
  let indicator: FeedIndicator | undefined;
  if (type === 'ip:port') {
    const colon = value.lastIndexOf(':');
    const ip = canonicalIp(colon > 0 && !value.endsWith(']') ? value.slice(0, colon) : value);
    const port = Number(value.slice(colon + 1));
    if (Number.isInteger(port) && port > 0 && port < 65536) details.port = port;
    indicator = ip ? { via: 'address', value: ip, details } : undefined;
  } else if (type === 'domain') {
    const host = listedHost(value);
    indicator = host ? { via: 'domain', value: host, details } : undefined;
  } else if (type === 'url') {
    indicator = urlHostIndicator(value, { ...details, urls: 1 });
  } else {
    out.skipped++; // file hashes: nothing an investigated entity can match
    return;
  }
  if (indicator) out.indicators.push(indicator);
  else out.rejected++;
}

/**
 * ThreatFox export: CSV (`#` comment lines with the column header, then rows quoted with `", "`) or
 * JSON (`{"<ioc_id>": [{ioc_value, ioc_type, threat_type, malware_printable, first_seen_utc, ...}]}`).
 */
export function parseThreatFox(body: Uint8Array): ParsedFeed {
  const out = empty();
  const content = text(body).trim();
  if (content.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(content);
    } catch {
      out.rejected++;
      return out;
    }
    for (const [id, entries] of Object.entries(parsed as Record<string, unknown>)) {
      for (const entry of Array.isArray(entries) ? entries : [entries]) {
        if (!entry || typeof entry !== 'object') {
          out.rejected++;
          continue;
        }
        threatFoxIndicator({ ioc_id: id, ...(entry as ThreatFoxRow) }, out);
      }
    }
    return out;
  }
  const { comments, rows } = csvRows(body);
  const header = commentHeader(comments, 'first_seen_utc') ?? THREATFOX_COLUMNS;
  for (const line of rows) {
    const fields = csvFields(line);
    if (fields.length < 4) {
      out.rejected++;
      continue;
    }
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      row[name] = fields[i] ?? '';
    });
    threatFoxIndicator(row, out);
  }
  return out;
}

// ---- Plain lists ----

/** One IP address (or CIDR) a line; `#` and `;` comments, blank lines and trailing comments ignored. */
export function parseIpLines(body: Uint8Array): ParsedFeed {
  const out = empty();
  for (const raw of lines(text(body))) {
    const line = raw.replace(/[#;].*$/, '').trim();
    if (!line) continue;
    const value = line.split(/\s+/, 1)[0] ?? '';
    if (value.includes('/')) {
      const cidr = canonicalCidr(value);
      if (cidr) out.indicators.push({ via: 'cidr', value: cidr });
      else out.rejected++;
      continue;
    }
    const ip = canonicalIp(value);
    if (ip) out.indicators.push({ via: 'address', value: ip });
    else out.rejected++;
  }
  return out;
}

/** One URL a line (OpenPhish `feed.txt`). */
export function parseUrlLines(body: Uint8Array): ParsedFeed {
  const out = empty();
  for (const raw of lines(text(body))) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const indicator = urlHostIndicator(line, { urls: 1 });
    if (indicator) out.indicators.push(indicator);
    else out.rejected++;
  }
  return out;
}

// ---- Tranco ----

/** `top-1m.csv` (inside its zip): `rank,domain` lines, no header. */
export function parseTranco(body: Uint8Array, maxBytes = Number.POSITIVE_INFINITY): ParsedFeed {
  const out = empty();
  let csv: Uint8Array;
  try {
    csv = unzipFirst(body, maxBytes);
  } catch (error) {
    if (error instanceof FeedContentError) throw error;
    out.rejected++;
    return out;
  }
  for (const raw of lines(text(csv))) {
    const line = raw.trim();
    if (!line) continue;
    const comma = line.indexOf(',');
    const rank = Number(line.slice(0, comma));
    const host = comma > 0 ? canonicalHost(line.slice(comma + 1)) : undefined;
    if (!host || !Number.isInteger(rank) || rank < 1) {
      out.rejected++;
      continue;
    }
    out.indicators.push({ via: 'domain', value: host, rank });
  }
  return out;
}

export const PARSERS: Readonly<Record<FeedFormat, Parser>> = {
  spamhaus_drop: parseSpamhausDrop,
  feodo: parseFeodo,
  urlhaus_csv: parseUrlhausCsv,
  threatfox: parseThreatFox,
  url_lines: parseUrlLines,
  ip_lines: parseIpLines,
  tranco: parseTranco,
};

/** A feed-supplied string or string list without control or invisible characters (they reach reports). */
function cleanDetails(details: IndicatorDetails): IndicatorDetails {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(details)) {
    out[name] =
      typeof value === 'string'
        ? stripControlOrInvisible(value)
        : Array.isArray(value)
          ? value.map((v) => (typeof v === 'string' ? stripControlOrInvisible(v) : v))
          : value;
  }
  return out as IndicatorDetails;
}

/** Parses a downloaded body in the feed's format (FeedContentError when it is refused whole). */
export function parseFeed(
  format: FeedFormat,
  body: Uint8Array,
  maxBytes = Number.POSITIVE_INFINITY,
): ParsedFeed {
  const parsed = PARSERS[format](body, maxBytes);
  for (const indicator of parsed.indicators) {
    if (indicator.details) indicator.details = cleanDetails(indicator.details);
  }
  if (parsed.notice) parsed.notice = stripControlOrInvisible(parsed.notice);
  return parsed;
}
