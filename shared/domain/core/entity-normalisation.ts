import { domainToASCII, domainToUnicode } from 'node:url';
import {
  ENTITY_TYPES,
  type Entity,
  type EntityDescription,
  type EntityInput,
  type EntityType,
  isEntityType,
  MAX_ENTITY_VALUE_LENGTH,
  parseUser,
  unicodeName,
} from './entity';
import { ValidationError } from './errors';
import { ipaddr } from './ip-address';
import { parseHostname } from './public-suffix';

/**
 * Security entities and their one canonical spelling (the types and labels are entity.ts). Every
 * entity that enters the service (an investigation request, an incident from a SIEM, a graph lookup)
 * goes through `normaliseEntity`, so `CORP\Alice`, `corp\alice` and ` CORP\ALICE ` are one graph
 * node and one search term. `describeEntity` reads the same Public Suffix List for a domain's
 * registrable part. The two libraries this needs (ipaddr.js and tldts) load on first use.
 *
 * Rules (docs/investigations.md repeats them for API users):
 * - ip: IPv4 only in strict dotted-quad decimal (no `127.1`, octal or hex forms: those are parser
 *   tricks, not how logs write addresses). IPv6 in RFC 5952 form (compressed, lowercase); the zone
 *   (`%eth0`) is dropped because it names a local interface, not the address. IPv4-mapped IPv6
 *   (`::ffff:198.51.100.7`) becomes the IPv4 address: dual-stack sockets log IPv4 peers that way, and
 *   it is the same host on the wire, so the graph must not split it in two. `[v6]` brackets are
 *   accepted. Ports and CIDR ranges are not entities and are rejected.
 * - domain: trimmed, lowercased, one trailing dot removed, IDN converted to punycode (the value is
 *   the ASCII `xn--` form; the Unicode form is in `describeEntity`). It must end in a suffix on the
 *   ICANN section of the Public Suffix List and must not itself be a public suffix (`co.uk`).
 * - host: same spelling rules as a domain but no suffix requirement: `dc01`, `dc01.corp.local`.
 * - user: NFKC, lowercased, in one of three forms kept as written: `upn` (`alice@corp.example`; an
 *   e-mail address has the same shape and the same form), `down_level` (`corp\alice`) or `bare`
 *   (`alice`). Whitespace and the characters Active Directory forbids in logon names are rejected.
 * - An IP literal sent as type `host` or `domain` is investigated as an `ip`.
 *
 * Inference for a bare string (or an object without `type`), first match wins:
 * 1. it parses as an IP address → ip (something made only of digits and dots that does not parse is
 *    rejected as a bad IPv4 address rather than guessed to be a host);
 * 2. it contains `\` or `@` → user;
 * 3. it is a dotted name under a known public suffix → domain (`dc01.corp.example.com` is therefore a
 *    domain unless the caller says `host`);
 * 4. anything else that is a valid name → host (so a bare `alice` is a host: send
 *    `{"type":"user","value":"alice"}` for a bare logon name).
 */
const MAX_DNS_NAME_LENGTH = 253;

/**
 * Normalises an entity given as `{type?, value}` or a bare string. Throws ValidationError with a
 * detail at `<path>.value` (or `<path>.type`) naming the problem. Idempotent.
 */
/**
 * Control and invisible formatting characters (ESC, NUL, zero-width spaces, bidi overrides such as
 * U+202E, private-use and lone surrogates): refused in entity values and in free text, stripped from
 * feed-supplied strings. Free text may keep line breaks and tabs (`allowLineBreaks`).
 */
const CONTROL_OR_INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
const LINE_BREAKS = /[\t\n\r]/g;

export function hasControlOrInvisible(value: string, options: { allowLineBreaks?: boolean } = {}): boolean {
  const checked = options.allowLineBreaks ? value.replace(LINE_BREAKS, ' ') : value;
  CONTROL_OR_INVISIBLE.lastIndex = 0;
  return CONTROL_OR_INVISIBLE.test(checked);
}

export function stripControlOrInvisible(value: string): string {
  return value.replace(CONTROL_OR_INVISIBLE, '');
}

export function normaliseEntity(input: EntityInput, path = 'entity'): Entity {
  const requested = typeof input === 'string' ? undefined : (input?.type ?? undefined);
  const raw = typeof input === 'string' ? input : input?.value;
  const valuePath = typeof input === 'string' ? path : `${path}.value`;
  const fail = (message: string, at = valuePath): never => {
    throw new ValidationError(`Invalid entity: ${message}.`, [{ path: at, message }]);
  };

  if (requested !== undefined && !isEntityType(requested)) {
    fail(`type must be one of ${ENTITY_TYPES.join(', ')}`, `${path}.type`);
  }
  if (typeof raw !== 'string') return fail('value must be a string');
  if (raw.length > MAX_ENTITY_VALUE_LENGTH)
    fail(`value must be at most ${MAX_ENTITY_VALUE_LENGTH} characters`);
  const value = raw.trim();
  if (value.length === 0) fail('value must not be empty');
  if (hasControlOrInvisible(value)) {
    fail('value contains control or invisible formatting characters');
  }

  const type = requested as EntityType | undefined;
  switch (type) {
    case 'ip': {
      const ip = canonicalIp(value);
      return ip === null ? fail(`"${value}" is not a valid IPv4 or IPv6 address`) : { type: 'ip', value: ip };
    }
    case 'user':
      return { type: 'user', value: normaliseUser(value, fail) };
    case 'domain':
    case 'host': {
      const ip = canonicalIp(value);
      if (ip !== null) return { type: 'ip', value: ip };
      const name = asciiName(value, fail);
      if (type === 'host') return { type: 'host', value: name };
      const suffix = parseHostname(name);
      if (!suffix.isIcann) {
        fail(`"${name}" has no known public suffix; use type "host" for internal names`);
      }
      if (!suffix.domain) fail(`"${name}" is a public suffix, not a registrable domain`);
      return { type: 'domain', value: name };
    }
    case undefined:
      return inferEntity(value, fail);
  }
}

function inferEntity(value: string, fail: (message: string) => never): Entity {
  const ip = canonicalIp(value);
  if (ip !== null) return { type: 'ip', value: ip };
  if (/^[0-9.]+$/.test(value) && value.includes('.')) {
    fail(`"${value}" looks like an IPv4 address but is not a valid dotted-quad one`);
  }
  if (value.includes('/') && canonicalIp(value.split('/')[0] ?? '') !== null) {
    fail('CIDR ranges are not entities; give a single address');
  }
  if (value.includes('://')) fail('URLs are not entities; give the domain or host name');
  const folded = value.normalize('NFKC');
  if (folded.includes('\\') || folded.includes('@'))
    return { type: 'user', value: normaliseUser(value, fail) };
  const name = asciiName(value, fail);
  const suffix = parseHostname(name);
  if (name.includes('.') && suffix.isIcann && suffix.domain) return { type: 'domain', value: name };
  return { type: 'host', value: name };
}

/** Returns the canonical IP string, or null when the value is not an IP address. */
export function canonicalIp(value: string): string | null {
  const bare = value.startsWith('[') && value.endsWith(']') ? value.slice(1, -1) : value;
  const { IPv4, IPv6 } = ipaddr();
  if (IPv4.isValidFourPartDecimal(bare)) return IPv4.parse(bare).toString();
  if (!bare.includes(':') || !IPv6.isValid(bare)) return null;
  const address = IPv6.parse(bare);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  address.zoneId = undefined;
  return address.toRFC5952String();
}

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/** ASCII the URL host parser would silently cut at or reinterpret (`a/b` → `a`). */
function hasForbiddenAscii(text: string): boolean {
  for (const char of text) {
    if (char < '\u0080' && !/[A-Za-z0-9._-]/.test(char)) return true;
  }
  return false;
}

/** Lowercase ASCII (punycode) form of a DNS-style name; validates every label. */
function asciiName(value: string, fail: (message: string) => never): string {
  const folded = value.normalize('NFKC');
  if (/\s/u.test(folded)) fail(`"${value}" is not a valid name: it contains whitespace`);
  if (hasForbiddenAscii(folded)) {
    fail(`"${value}" is not a valid domain or host name: only letters, digits, "-", "_" and "." are allowed`);
  }
  const withoutDot = folded.endsWith('.') ? folded.slice(0, -1) : folded;
  // URL host parsing reads a name ending in a number as IPv4 (`0` → `0.0.0.0`, `0x7f.1` → `127.0.0.1`).
  if (/^(0x[0-9a-f]*|[0-9]+)$/i.test(withoutDot.split('.').at(-1) ?? '')) {
    fail(`"${value}" is not a valid name: its last label is a number`);
  }
  let ascii = domainToASCII(withoutDot);
  if (ascii.endsWith('.')) ascii = ascii.slice(0, -1);
  if (ascii.length === 0) fail(`"${value}" is not a valid domain or host name`);
  if (ascii.length > MAX_DNS_NAME_LENGTH) fail(`"${value}" is longer than ${MAX_DNS_NAME_LENGTH} characters`);
  for (const label of ascii.split('.')) {
    // An `xn--` label must be punycode that decodes: Node's URL parser accepts some that do not
    // (`xn--zz` since Node 24.1x, ada 4), so this does not depend on the Node version.
    if (label.startsWith('xn--') && /^(xn--|$)/.test(domainToUnicode(label))) {
      fail(`"${value}" is not a valid domain or host name: "${label}" is not valid punycode`);
    }
    if (!LABEL.test(label)) {
      fail(
        label.length === 0
          ? `"${value}" has an empty label`
          : `"${value}" has an invalid label "${label}" (1-63 letters, digits, "-" or "_", not starting or ending with "-")`,
      );
    }
  }
  return ascii;
}

/** NFKC + lowercase until stable, so the result is a fixed point (idempotence). */
function canonicalText(value: string): string {
  let text = value;
  for (let i = 0; i < 4; i++) {
    const next = text.normalize('NFKC').toLowerCase().normalize('NFKC');
    if (next === text) break;
    text = next;
  }
  return text;
}

/** Characters Active Directory forbids in logon names, plus whitespace and invisible characters. */
const FORBIDDEN_IN_LOGON_NAME = /[\p{C}\p{Z}\s"/[\]:;|,*?<>\\@]/u;

function normaliseUser(value: string, fail: (message: string) => never): string {
  const text = canonicalText(value);
  const checkName = (name: string, what: string): string => {
    if (name.length === 0) fail(`${what} must not be empty`);
    if (FORBIDDEN_IN_LOGON_NAME.test(name)) {
      fail(
        `${what} "${name}" contains a character not allowed in a logon name (whitespace or one of \\ @ " / [ ] : ; | , * ? < >)`,
      );
    }
    return name;
  };
  const backslashes = text.split('\\').length - 1;
  const ats = text.split('@').length - 1;
  if (backslashes > 1 || ats > 1 || (backslashes === 1 && ats === 1)) {
    fail(`"${value}" is not a user name: use alice@corp.example, CORP\\alice or alice`);
  }
  if (backslashes === 1) {
    const [domain = '', name = ''] = text.split('\\');
    if (domain.length === 0) fail('the domain before "\\" must not be empty');
    return `${asciiName(domain, fail)}\\${checkName(name, 'the user name')}`;
  }
  if (ats === 1) {
    const [name = '', domain = ''] = text.split('@');
    if (domain.length === 0) fail('the domain after "@" must not be empty');
    return `${checkName(name, 'the user name')}@${asciiName(domain, fail)}`;
  }
  return checkName(text, 'the user name');
}

/** Structured facts about a normalised entity, for enrichers and reports. */
export function describeEntity(entity: Entity): EntityDescription {
  switch (entity.type) {
    case 'ip':
      return { type: 'ip', version: entity.value.includes(':') ? 6 : 4 };
    case 'user':
      return { type: 'user', ...parseUser(entity.value) };
    case 'host': {
      const dot = entity.value.indexOf('.');
      return {
        type: 'host',
        form: dot >= 0 ? 'fqdn' : 'short',
        short_name: dot >= 0 ? entity.value.slice(0, dot) : entity.value,
        unicode: unicodeName(entity.value),
      };
    }
    case 'domain': {
      const icann = parseHostname(entity.value);
      // The private section (github.io, blogspot.com...) gives the registrable unit that one
      // customer controls; fall back to the ICANN view for the private suffix itself.
      const withPrivate = parseHostname(entity.value, { allowPrivateDomains: true });
      const registrable = withPrivate.domain ?? icann.domain ?? entity.value;
      const publicSuffix = (withPrivate.domain ? withPrivate.publicSuffix : icann.publicSuffix) ?? '';
      const subdomain =
        entity.value === registrable
          ? ''
          : entity.value.slice(0, entity.value.length - registrable.length - 1);
      const unicode = unicodeName(entity.value);
      return {
        type: 'domain',
        registrable_domain: registrable,
        public_suffix: publicSuffix,
        subdomain,
        unicode,
        is_idn: entity.value.split('.').some((label) => label.startsWith('xn--')),
      };
    }
  }
}
