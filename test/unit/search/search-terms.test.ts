import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../shared/domain/core/entity';
import { ValidationError } from '../../../shared/domain/core/errors';
import {
  foldText,
  MAX_QUERY_TERMS,
  MAX_SESSION_TERMS,
  quotedIn,
  type SearchableSession,
  slug,
  termsForQuery,
  termsForSession,
  wordsOf,
} from '../../../shared/domain/search/search-terms';

const session: SearchableSession = {
  entity: { type: 'ip', value: '203.0.113.66' },
  status: 'completed',
  verdict: 'malicious',
  persona: 'SOC Analyst',
  summary:
    'The address ran a password-spray against j.doe@contoso.example and hosts a phishing page on micros0ft-login.example.com.',
  findings: [
    { title: 'Password spray', description: 'Seen from 203.0.113.66:443 in Entra ID sign-in logs.' },
    { title: 'Phishing kit', description: 'Hosts a Microsoft look-alike login page.' },
  ],
  entities: [{ type: 'host', value: 'ws-0142' }],
};

/** A query matches a session when every query term is among the session's terms (AND). */
function matches(q: string, s: SearchableSession): boolean {
  const indexed = new Set(termsForSession(s));
  return termsForQuery(q).terms.every((term) => indexed.has(term));
}

describe('session terms', () => {
  it('puts the structural terms first', () => {
    expect(termsForSession(session).slice(0, 6)).toEqual([
      'v:203.0.113.66',
      't:ip',
      's:completed',
      'vd:malicious',
      'p:soc-analyst',
      'v:ws-0142',
    ]);
  });

  it('indexes entities written in the prose as exact values', () => {
    const terms = termsForSession(session);
    expect(terms).toContain('v:j.doe@contoso.example');
    expect(terms).toContain('v:micros0ft-login.example.com');
  });

  it('indexes lowercased words without stop words or duplicates', () => {
    const terms = termsForSession(session);
    expect(terms).toEqual(
      expect.arrayContaining(['w:password', 'w:spray', 'w:phishing', 'w:kit', 'w:entra']),
    );
    expect(terms).not.toContain('w:the');
    expect(terms).not.toContain('w:and');
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('adds the name parts of users, hosts and domains (subject and related), but not of IPs', () => {
    const user = termsForSession({ ...session, entity: { type: 'user', value: 'j.doe@contoso.example' } });
    expect(user).toEqual(expect.arrayContaining(['w:doe', 'w:contoso']));
    const ipOnly = termsForSession({ ...session, summary: null, findings: [], entities: [] });
    expect(ipOnly.filter((t) => t.startsWith('w:'))).toEqual([]);
    const related = termsForSession({ ...session, summary: null, findings: [] });
    expect(related.filter((t) => t.startsWith('w:'))).toEqual(['w:ws', 'w:0142']);
  });

  it('is bounded', () => {
    const long = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const terms = termsForSession({ ...session, summary: long });
    expect(terms).toHaveLength(MAX_SESSION_TERMS);
    expect(terms.slice(0, 5)).toEqual([
      'v:203.0.113.66',
      't:ip',
      's:completed',
      'vd:malicious',
      'p:soc-analyst',
    ]);
  });

  it('keeps what an analyst remembers under the cap: finding titles and quoted incident titles before a long summary', () => {
    const long = Array.from({ length: 500 }, (_, i) => `word${i}`).join(' ');
    const terms = termsForSession({
      ...session,
      summary: long,
      findings: [
        {
          title: 'Mentioned in 5 incidents',
          description: `Most recent: "Password spray against Entra ID accounts" (high); "Brute Force Access Behavior Detected on dc01" (critical). ${long}`,
        },
      ],
    });
    expect(terms).toHaveLength(MAX_SESSION_TERMS);
    expect(terms).toEqual(
      expect.arrayContaining([
        'w:mentioned',
        'w:incidents',
        'w:password',
        'w:spray',
        'w:entra',
        'w:brute',
        'w:force',
      ]),
    );
    expect(terms.indexOf('w:spray')).toBeLessThan(terms.indexOf('w:word0'));
    // The summary comes last: none of its words fit once the findings' own text filled the cap.
    expect(terms.filter((t) => /^w:word\d+$/.test(t)).length).toBeLessThan(50);
  });

  it('finds quoted text, straight or curly quotes', () => {
    expect(quotedIn('Most recent: "Password spray" (high); “Brute Force” (critical)')).toEqual([
      'Password spray',
      'Brute Force',
    ]);
    expect(quotedIn('no quotes here')).toEqual([]);
  });

  it('skips the verdict while there is none and never writes an empty term', () => {
    const terms = termsForSession({
      ...session,
      status: 'active',
      verdict: null,
      persona: '!!!',
      summary: null,
    });
    expect(terms.slice(0, 3)).toEqual(['v:203.0.113.66', 't:ip', 's:active']);
    expect(terms.every((t) => !t.endsWith(':'))).toBe(true);
  });
});

describe('words', () => {
  it('folds case, width and diacritics', () => {
    expect(foldText('Müller ÉCOLE Ｆｕｌｌ')).toBe('muller ecole full');
    expect(wordsOf('Überprüfung der Anmeldung')).toEqual(['uberprufung', 'der', 'anmeldung']);
  });

  it('splits on punctuation, symbols and emoji', () => {
    expect(wordsOf('C2-beacon,(cobalt_strike)!🔥ransomware…done')).toEqual([
      'c2',
      'beacon',
      'cobalt',
      'strike',
      'ransomware',
      'done',
    ]);
  });

  it('keeps non-Latin words, numbers and hashes; drops one-letter words and blobs', () => {
    const sha256 = 'a'.repeat(64);
    expect(wordsOf(`Пароль утёк 4625 x ${sha256} ${'b'.repeat(65)}`)).toEqual([
      'пароль',
      'утек',
      '4625',
      sha256,
    ]);
    expect(wordsOf('フィッシング 攻撃')).toEqual(['フィッシング', '攻撃']);
  });

  it('slugs personas and statuses', () => {
    expect(slug('SOC Analyst')).toBe('soc-analyst');
    expect(slug('  CISO ')).toBe('ciso');
  });
});

describe('query terms', () => {
  it('turns an IP, user or domain into an exact term, selective terms first', () => {
    expect(termsForQuery('phishing 203.0.113.66').terms).toEqual(['v:203.0.113.66', 'w:phishing']);
    expect(termsForQuery('J.Doe@Contoso.Example').terms).toEqual(['v:j.doe@contoso.example']);
    expect(termsForQuery('CONTOSO\\JDoe').terms).toEqual(['v:contoso\\jdoe']);
    expect(termsForQuery('Micros0ft-Login.Example.COM.').terms).toEqual(['v:micros0ft-login.example.com']);
    expect(termsForQuery('2001:DB8::BAD:1').terms).toEqual(['v:2001:db8::bad:1']);
  });

  it('strips the punctuation a sentence wraps around a value', () => {
    expect(termsForQuery('(203.0.113.66), "phishing"?').terms).toEqual(['v:203.0.113.66', 'w:phishing']);
  });

  it('searches a pasted URL by its host', () => {
    expect(termsForQuery('https://micros0ft-login.example.com/common/login?x=1').terms).toEqual([
      'v:micros0ft-login.example.com',
    ]);
  });

  it('reads a dotted word that is no entity as words', () => {
    expect(termsForQuery('e.g. lateral-movement').terms).toEqual(['w:movement', 'w:lateral']);
    expect(termsForQuery('ws-0142').terms).toEqual(['w:0142', 'w:ws']);
  });

  it('understands field filters and typed values', () => {
    expect(
      termsForQuery('type:IP status:Completed verdict:malicious persona:"SOC Analyst" user:alice').terms,
    ).toEqual(['v:alice', 'p:soc-analyst', 'vd:malicious', 't:ip', 's:completed']);
    expect(termsForQuery('host:DC01 domain:example.com').terms).toEqual(['v:dc01', 'v:example.com']);
  });

  it('matches quoted phrases word by word', () => {
    expect(termsForQuery('"password spray"').terms).toEqual(['w:password', 'w:spray']);
  });

  it.each([
    ['only stop words', 'the and of'],
    ['only punctuation', '!!! ???'],
    ['an invalid typed value', 'ip:not-an-ip'],
    ['an invalid type filter', 'type:planet'],
    ['too many terms', 'one two three four five six seven eight nine'],
    ['nothing at all', '   '],
    ['too long', 'a'.repeat(257)],
  ])('rejects a query with %s', (_, q) => {
    expect(() => termsForQuery(q)).toThrow(ValidationError);
  });

  it(`allows exactly ${MAX_QUERY_TERMS} terms`, () => {
    expect(termsForQuery('one two three four five six seven eight').terms).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe('queries find what sessions index', () => {
  it.each([
    '203.0.113.66',
    'j.doe@contoso.example',
    'micros0ft-login.example.com',
    'ws-0142',
    'PASSWORD spray',
    'phishing status:completed verdict:malicious',
    'persona:"soc analyst" type:ip',
    'Entra sign-in',
  ])('%s matches the session', (q) => {
    expect(matches(q, session)).toBe(true);
  });

  it.each(['198.51.100.1', 'ransomware', 'status:failed', 'type:user', 'password ransomware'])(
    '%s does not match the session (AND semantics)',
    (q) => {
      expect(matches(q, session)).toBe(false);
    },
  );

  const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
  const domain = fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/),
      fc.constantFrom('com', 'net', 'org', 'co.uk', 'de'),
    )
    .map(([label, suffix]) => `${label}.${suffix}`);
  const user = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,10}$/), domain)
    .map(([name, host]) => `${name}@${host}`);

  it('property: searching for the subject of any session finds it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          ipv4.map((value): Entity => ({ type: 'ip', value })),
          domain.map((value): Entity => ({ type: 'domain', value })),
          user.map((value): Entity => ({ type: 'user', value })),
        ),
        fc.string({ maxLength: 200 }),
        (entity, summary) => {
          const s: SearchableSession = { entity, status: 'completed', persona: 'SOC Analyst', summary };
          expect(matches(entity.value, s)).toBe(true);
          expect(matches(entity.value.toUpperCase(), s)).toBe(true);
        },
      ),
    );
  });

  it('property: any indexed summary word is found by a query for it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 120 }), (summary) => {
        const s: SearchableSession = { ...session, summary, findings: [] };
        const indexedWords = termsForSession(s)
          .filter((t) => t.startsWith('w:'))
          .map((t) => t.slice(2));
        for (const word of indexedWords) expect(matches(word, s)).toBe(true);
      }),
    );
  });
});
