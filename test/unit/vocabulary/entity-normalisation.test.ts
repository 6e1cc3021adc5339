import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Entity, entityLabel, parseUser } from '../../../shared/domain/core/entity';
import {
  canonicalIp,
  describeEntity,
  normaliseEntity,
} from '../../../shared/domain/core/entity-normalisation';
import { ValidationError } from '../../../shared/domain/core/errors';

function validationDetail(fn: () => unknown): { path: string; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const detail = (error as ValidationError).details?.[0];
    expect(detail).toBeDefined();
    return detail!;
  }
  throw new Error('expected a ValidationError');
}

describe('entity normalisation: IP addresses', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 198.51.100.1 ', '198.51.100.1'],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', '2001:db8::ff00:42:8329'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['0:0:0:0:0:ffff:c633:6407', '198.51.100.7'],
    ['::', '::'],
  ])('%j → ip %j', (input, expected) => {
    expect(normaliseEntity(input)).toEqual({ type: 'ip', value: expected });
    expect(normaliseEntity({ type: 'ip', value: input })).toEqual({ type: 'ip', value: expected });
  });

  it.each([
    '127.1',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '010.0.0.1',
    '256.1.1.1',
    '1.2.3',
    'fe80::1::2',
    '1.2.3.4:80',
  ])('rejects the non-canonical or invalid address %j when the type is ip', (input) => {
    const detail = validationDetail(() => normaliseEntity({ type: 'ip', value: input }));
    expect(detail.path).toBe('entity.value');
    expect(detail.message).toMatch(/not a valid IPv4 or IPv6 address/);
  });

  it('refuses to guess that a malformed dotted quad is a host', () => {
    expect(validationDetail(() => normaliseEntity('300.1.2.3')).message).toMatch(/looks like an IPv4/);
    expect(validationDetail(() => normaliseEntity('10.0.0.0/8')).message).toMatch(/CIDR/);
  });

  it('investigates an IP literal sent as host or domain as an ip', () => {
    expect(normaliseEntity({ type: 'host', value: '10.0.0.5' })).toEqual({ type: 'ip', value: '10.0.0.5' });
    expect(normaliseEntity({ type: 'domain', value: '::FFFF:10.0.0.5' })).toEqual({
      type: 'ip',
      value: '10.0.0.5',
    });
  });

  it('canonicalIp returns null for non-addresses', () => {
    expect(canonicalIp('example.com')).toBeNull();
    expect(canonicalIp('1234')).toBeNull();
  });
});

describe('entity normalisation: domains', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  mail.Example.co.uk ', 'mail.example.co.uk'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['раypal.com', 'xn--ypal-43d9g.com'],
    ['xn--ypal-43d9g.com', 'xn--ypal-43d9g.com'],
    ['ｐａｙｐａｌ．ｃｏｍ', 'paypal.com'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['dc01.corp.example.com', 'dc01.corp.example.com'],
  ])('%j → domain %j', (input, expected) => {
    expect(normaliseEntity(input)).toEqual({ type: 'domain', value: expected });
    expect(normaliseEntity({ type: 'domain', value: input })).toEqual({ type: 'domain', value: expected });
  });

  it('requires a known public suffix when the type is domain', () => {
    const detail = validationDetail(() => normaliseEntity({ type: 'domain', value: 'dc01.corp.local' }));
    expect(detail).toEqual({
      path: 'entity.value',
      message: expect.stringMatching(/no known public suffix/),
    });
  });

  it('rejects a bare public suffix', () => {
    expect(validationDetail(() => normaliseEntity({ type: 'domain', value: 'co.uk' })).message).toMatch(
      /public suffix, not a registrable domain/,
    );
  });

  it.each([
    ['a..com', /empty label/],
    ['-bad.com', /invalid label/],
    ['bad-.com', /invalid label/],
    [`${'a'.repeat(64)}.com`, /invalid label/],
    ['evil.com/login', /only letters, digits/],
    ['evil.com:443', /only letters, digits/],
    ['ex ample.com', /whitespace/],
    ['xn--zz.com', /not a valid domain or host name/],
  ])('rejects %j', (input, message) => {
    expect(validationDetail(() => normaliseEntity({ type: 'domain', value: input })).message).toMatch(
      message,
    );
  });

  it('rejects URLs with a hint', () => {
    expect(validationDetail(() => normaliseEntity('https://evil.example.com/x')).message).toMatch(/URLs/);
  });

  it('describes the registrable domain, suffix, subdomain and unicode form', () => {
    expect(describeEntity({ type: 'domain', value: 'a.b.example.co.uk' })).toEqual({
      type: 'domain',
      registrable_domain: 'example.co.uk',
      public_suffix: 'co.uk',
      subdomain: 'a.b',
      unicode: 'a.b.example.co.uk',
      is_idn: false,
    });
    expect(describeEntity({ type: 'domain', value: 'evil.github.io' })).toMatchObject({
      registrable_domain: 'evil.github.io',
      public_suffix: 'github.io',
      subdomain: '',
    });
    expect(describeEntity({ type: 'domain', value: 'github.io' })).toMatchObject({
      registrable_domain: 'github.io',
      subdomain: '',
    });
    expect(describeEntity({ type: 'domain', value: 'xn--ypal-43d9g.com' })).toMatchObject({
      unicode: 'раypal.com',
      is_idn: true,
    });
  });
});

describe('entity normalisation: hosts', () => {
  it.each([
    ['DC01', 'dc01'],
    ['dc01.corp.local', 'dc01.corp.local'],
    ['WS-0042.Corp.Example', 'ws-0042.corp.example'],
    ['localhost', 'localhost'],
  ])('%j → host %j', (input, expected) => {
    expect(normaliseEntity(input)).toEqual({ type: 'host', value: expected });
  });

  it('keeps a public-suffix name as a host when the caller says host', () => {
    expect(normaliseEntity({ type: 'host', value: 'Web01.Example.com.' })).toEqual({
      type: 'host',
      value: 'web01.example.com',
    });
  });

  it('describes the form and short name', () => {
    expect(describeEntity({ type: 'host', value: 'dc01.corp.local' })).toEqual({
      type: 'host',
      form: 'fqdn',
      short_name: 'dc01',
      unicode: 'dc01.corp.local',
    });
    expect(describeEntity({ type: 'host', value: 'dc01' })).toMatchObject({
      form: 'short',
      short_name: 'dc01',
    });
  });
});

describe('entity normalisation: users', () => {
  it.each([
    ['Alice@Corp.Example', 'alice@corp.example', 'upn'],
    ['alice.smith+sec@example.com', 'alice.smith+sec@example.com', 'upn'],
    ['CORP\\Alice', 'corp\\alice', 'down_level'],
    ['corp.example.com\\svc_backup', 'corp.example.com\\svc_backup', 'down_level'],
  ])('%j → user %j (%s)', (input, expected, form) => {
    const entity = normaliseEntity(input);
    expect(entity).toEqual({ type: 'user', value: expected });
    expect(parseUser(entity.value).form).toBe(form);
  });

  it('accepts a bare logon name only when the type says user', () => {
    expect(normaliseEntity({ type: 'user', value: 'Administrator' })).toEqual({
      type: 'user',
      value: 'administrator',
    });
    expect(normaliseEntity('Administrator')).toEqual({ type: 'host', value: 'administrator' });
  });

  it('splits forms into name and domain', () => {
    expect(parseUser('corp\\alice')).toEqual({ form: 'down_level', name: 'alice', domain: 'corp' });
    expect(parseUser('alice@corp.example')).toEqual({ form: 'upn', name: 'alice', domain: 'corp.example' });
    expect(parseUser('alice')).toEqual({ form: 'bare', name: 'alice' });
  });

  it('converts an IDN UPN suffix to punycode', () => {
    expect(normaliseEntity('jörg@München.de')).toEqual({ type: 'user', value: 'jörg@xn--mnchen-3ya.de' });
  });

  it.each([
    ['a@b@c.com', /not a user name/],
    ['corp\\alice@corp.example', /not a user name/],
    ['@corp.example', /user name must not be empty/],
    ['alice@', /domain after "@" must not be empty/],
    ['\\alice', /domain before/],
    ['alice smith@corp.example', /not allowed in a logon name/],
    ['al<ice@corp.example', /not allowed in a logon name/],
  ])('rejects %j', (input, message) => {
    expect(validationDetail(() => normaliseEntity({ type: 'user', value: input })).message).toMatch(message);
  });
});

describe('entity normalisation: bad input', () => {
  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['a'.repeat(257), /at most 256/],
    ['evil\u0000.com', /control/],
    ['pay\u200Bpal.com', /control or invisible/],
    ['\u202Emoc.evil', /control or invisible/],
  ])('rejects %j', (input, message) => {
    const detail = validationDetail(() => normaliseEntity({ type: 'domain', value: input }));
    expect(detail.path).toBe('entity.value');
    expect(detail.message).toMatch(message);
  });

  it('names the type field when the type is unknown', () => {
    expect(validationDetail(() => normaliseEntity({ type: 'url', value: 'x' }))).toEqual({
      path: 'entity.type',
      message: 'type must be one of ip, user, host, domain',
    });
  });

  it('rejects a non-string value and uses a caller-chosen path', () => {
    expect(validationDetail(() => normaliseEntity({ type: 'ip', value: 42 }, 'entities.3')).path).toBe(
      'entities.3.value',
    );
  });

  it('labels entities for messages', () => {
    expect(entityLabel({ type: 'ip', value: '203.0.113.7' })).toBe('IP address 203.0.113.7');
  });
});

describe('entity normalisation properties', () => {
  const labelChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_ABCXYZ'.split(''));
  const label = fc.string({ unit: labelChars, minLength: 1, maxLength: 12 });
  const suffix = fc.constantFrom('com', 'co.uk', 'de', 'local', 'corp', 'example', 'github.io', 'zip');
  const name = fc
    .tuple(fc.array(label, { minLength: 0, maxLength: 3 }), label, suffix)
    .map(([sub, base, tld]) => [...sub, base, tld].join('.'));
  const ipv4 = fc.ipV4();
  const ipv6 = fc.ipV6();
  const user = fc.oneof(
    fc.tuple(label, name).map(([n, d]) => `${n}@${d}`),
    fc.tuple(label, label).map(([d, n]) => `${d}\\${n}`),
  );
  const anything = fc.oneof(
    ipv4,
    ipv6,
    name,
    user,
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
  );
  const types = fc.constantFrom(undefined, 'ip', 'user', 'host', 'domain');

  function tryNormalise(input: Parameters<typeof normaliseEntity>[0]): Entity | ValidationError {
    try {
      return normaliseEntity(input);
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  it('is idempotent and only ever throws ValidationError', () => {
    fc.assert(
      fc.property(anything, types, (value, type) => {
        const first = tryNormalise(type === undefined ? value : { type, value });
        if (first instanceof ValidationError) return;
        expect(normaliseEntity(first)).toEqual(first);
        expect(first.value.length).toBeGreaterThan(0);
        expect(first.value).toBe(first.value.trim());
      }),
      { numRuns: 2000 },
    );
  });

  it('re-infers the same entity from the value of an inferred entity', () => {
    fc.assert(
      fc.property(anything, (value) => {
        const first = tryNormalise(value);
        if (first instanceof ValidationError) return;
        expect(normaliseEntity(first.value)).toEqual(first);
      }),
      { numRuns: 2000 },
    );
  });

  it('normalises every valid IPv4 and IPv6 address to an ip entity that round-trips', () => {
    fc.assert(
      fc.property(fc.oneof(ipv4, ipv6), (address) => {
        const entity = normaliseEntity(address);
        expect(entity.type).toBe('ip');
        expect(entity.value).toBe(entity.value.toLowerCase());
        expect(canonicalIp(entity.value)).toBe(entity.value);
      }),
    );
  });

  it('normalises generated names to lowercase ASCII whose type follows the suffix', () => {
    fc.assert(
      fc.property(name, (value) => {
        const result = tryNormalise(value);
        if (result instanceof ValidationError) return;
        expect(result.value).toMatch(/^[a-z0-9._-]+$/);
        const hasIcannSuffix = /\.(com|co\.uk|de|github\.io|zip)$/.test(result.value);
        if (!hasIcannSuffix) expect(result.type).toBe('host');
      }),
    );
  });
});
