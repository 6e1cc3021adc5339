import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  committedVocabulary,
  literalPhrases,
  MAX_PHRASES_PER_WORD,
  MIN_PHRASE_WORDS,
  phraseFileText,
  phraseId,
  phraseVocabulary,
  readSources,
  SEARCH_PHRASES_PATH,
} from '../../../scripts/search-phrases';
import {
  type Phrase,
  type PhraseIndex,
  partitionsFor,
  phraseIndexOf,
  postingTermsFor,
} from '../../../shared/domain/search/search-phrases';
import { termsForSession } from '../../../shared/domain/search/search-terms';

const committed = committedVocabulary()!;
const committedPhrases: Phrase[] = committed.phrases.map(([id, words]) => ({ id, words: words.split(' ') }));
const vocabularyWords = [...new Set(committedPhrases.flatMap((phrase) => phrase.words))].sort();

const randomWord = fc.stringMatching(/^[a-z0-9]{2,8}$/);
const structural = fc.subarray([
  'v:203.0.113.7',
  't:ip',
  's:completed',
  'vd:benign',
  'vd:unknown',
  'p:soc-analyst',
]);

/** Findable terms of a session: structural terms, words of the vocabulary (often whole phrases), random words. */
const findableTerms = fc
  .tuple(
    structural,
    fc.subarray(committedPhrases, { maxLength: 6 }),
    fc.subarray(vocabularyWords, { maxLength: 30 }),
    fc.array(randomWord, { maxLength: 10 }),
  )
  .map(([terms, phrases, words, random]) => [
    ...new Set([
      ...terms,
      ...[...phrases.flatMap((phrase) => phrase.words), ...words, ...random].map((word) => `w:${word}`),
    ]),
  ]);

/**
 * The exactness argument, checked on one session: a word query finds it iff it has the word. The
 * store reads a word's own partition as it is and checks the word inside every posting of its other
 * partitions (a phrase's, where every posting has it, or a verdict's or type's, where one may not).
 */
function checkExact(index: PhraseIndex, phrases: readonly Phrase[], findable: string[], probes: string[]) {
  const posted = index.postingTermsFor(findable);
  const byId = new Map(phrases.map((phrase) => [`x:${phrase.id}`, phrase]));
  const findableWords = new Set(findable.filter((t) => t.startsWith('w:')));
  const covered = new Set<string>();
  for (const term of posted.filter((t) => t.startsWith('x:'))) {
    const phrase = byId.get(term);
    expect(phrase, term).toBeDefined();
    // A phrase is posted only when the session has every word of it.
    for (const word of phrase!.words) {
      expect(findableWords.has(`w:${word}`), word).toBe(true);
      covered.add(`w:${word}`);
    }
  }
  // Non-word terms are posted as they are; a word covered by a posted phrase is never posted on its own.
  for (const term of findable.filter((t) => !t.startsWith('w:'))) expect(posted).toContain(term);
  for (const term of posted.filter((t) => t.startsWith('w:'))) {
    expect(findableWords.has(term)).toBe(true);
    expect(covered.has(term), term).toBe(false);
  }
  // Every findable word is reachable through its partitions, and no other word is.
  const postedSet = new Set(posted);
  for (const word of new Set([...findableWords, ...probes.map((w) => `w:${w}`)])) {
    const partitions = index.partitionsFor(word);
    // A phrase partition never needs the check: a session posted there has every word of the phrase.
    for (const partition of partitions.filter((p) => p.startsWith('x:') && postedSet.has(p))) {
      expect(findableWords.has(word), `${word} via ${partition}`).toBe(true);
    }
    const found = partitions.some(
      (partition) => postedSet.has(partition) && (partition === word || findableWords.has(word)),
    );
    expect(found, word).toBe(findableWords.has(word));
  }
  expect(posted.length).toBeLessThanOrEqual(findable.length);
}

describe('phrase postings (shared/domain/search/search-phrases.ts)', () => {
  it('post a session so that every word query finds it exactly when it has the word (committed vocabulary)', () => {
    const index = phraseIndexOf(committedPhrases);
    fc.assert(
      fc.property(findableTerms, fc.subarray(vocabularyWords, { maxLength: 20 }), (findable, probes) => {
        checkExact(index, committedPhrases, findable, probes);
        expect(postingTermsFor(findable)).toEqual(index.postingTermsFor(findable));
      }),
      { numRuns: 300 },
    );
  });

  it('are exact for any vocabulary, overlapping phrases included', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
    const vocabulary = fc
      .uniqueArray(fc.uniqueArray(fc.constantFrom(...words), { minLength: 3, maxLength: 6 }), {
        maxLength: 8,
        selector: (phrase) => [...phrase].sort().join(' '),
      })
      .map((list) => list.map((phrase, i) => ({ id: `p${i}`, words: phrase })));
    fc.assert(
      fc.property(vocabulary, fc.subarray(words), (phrases, present) => {
        checkExact(phraseIndexOf(phrases), phrases, ['t:ip', ...present.map((w) => `w:${w}`)], words);
      }),
      { numRuns: 500 },
    );
  });

  it('read a template word from its own partition and those of its phrases, other terms from their own', () => {
    const word = committedPhrases.flatMap((phrase) => phrase.words).find((w) => w !== 'address')!;
    const phrases = committedPhrases.filter((phrase) => phrase.words.includes(word));
    expect(partitionsFor(`w:${word}`)).toEqual([`w:${word}`, ...phrases.map((p) => `x:${p.id}`)]);
    expect(partitionsFor('w:zebra')).toEqual(['w:zebra']);
    expect(partitionsFor('v:203.0.113.7')).toEqual(['v:203.0.113.7']);
    expect(partitionsFor('t:ip')).toEqual(['t:ip']);
  });

  it('let the verdict and the subject type stand in for the words that name them', () => {
    // "benign" and "address" ("IP address 203.0.113.7") are in every rules-engine summary of such a session.
    expect(partitionsFor('w:benign')).toEqual(expect.arrayContaining(['w:benign', 'vd:benign']));
    expect(partitionsFor('w:address')).toEqual(expect.arrayContaining(['w:address', 't:ip']));
    expect(partitionsFor('w:domain')).toEqual(expect.arrayContaining(['w:domain', 't:domain']));
    const findable = ['v:203.0.113.7', 't:ip', 'vd:benign', 'w:benign', 'w:address', 'w:ip', 'w:zebra'];
    expect(postingTermsFor(findable)).toEqual(['v:203.0.113.7', 't:ip', 'vd:benign', 'w:zebra']);
    // An unknown verdict's posting stands in for the words its summary always writes ("UNKNOWN · no
    // evidence in 4 sources … No risk indicators").
    expect(partitionsFor('w:evidence')).toEqual(expect.arrayContaining(['w:evidence', 'vd:unknown']));
    expect(
      postingTermsFor(['t:user', 'vd:unknown', 'w:unknown', 'w:evidence', 'w:sources', 'w:risk', 'w:zebra']),
    ).toEqual(['t:user', 'vd:unknown', 'w:zebra']);
    expect(postingTermsFor(['t:user', 'vd:benign', 'w:evidence'])).toEqual([
      't:user',
      'vd:benign',
      'w:evidence',
    ]);
    // Without the term, the word is posted on its own.
    expect(postingTermsFor(['t:user', 'vd:malicious', 'w:benign', 'w:address'])).toEqual([
      't:user',
      'vd:malicious',
      'w:benign',
      'w:address',
    ]);
  });

  it('post a rules-engine description once instead of once per word', () => {
    const description =
      '203.0.113.7 is reserved for documentation (TEST-NET-1/2/3, 2001:db8::/32, 3fff::/20) and never appears in real traffic: it points to test data, a placeholder left in a configuration, or spoofing.';
    const findable = termsForSession({
      entity: { type: 'ip', value: '203.0.113.7' },
      status: 'completed',
      persona: 'SOC Analyst',
      findings: [{ title: 'Documentation-only address', description }],
    });
    const posted = postingTermsFor(findable);
    expect(findable.filter((t) => t.startsWith('w:'))).toHaveLength(23);
    // 23 words, 6 postings at most: the address's own words (203, 113), the phrases, and the few
    // words whose phrase slots earlier text took.
    const postedWords = posted.filter((t) => t.startsWith('w:') || t.startsWith('x:'));
    expect(postedWords).toEqual(expect.arrayContaining(['w:113', 'w:203']));
    expect(postedWords.length).toBeLessThanOrEqual(6);
  });
});

describe('the phrase vocabulary (shared/domain/search/generated/search-phrases.json)', () => {
  it('is what `npm run search:phrases` writes from the sources (run it after changing engine text)', () => {
    expect(readFileSync(SEARCH_PHRASES_PATH, 'utf8')).toBe(
      phraseFileText(phraseVocabulary(committed, readSources())),
    );
  });

  it('keeps every entry it had, unchanged and in place (append-only)', () => {
    // Postings are written under these phrases: an entry edited, dropped or moved (a hand edit, a
    // merge resolved by taking one side) would leave sessions posted under a phrase that no longer
    // lists the word a query reads it for. The regeneration test above cannot see that: it starts
    // from the committed file. Appending leaves this digest as it is; change it only to cover more
    // entries (a longer prefix), never to let an entry change.
    const FROZEN = {
      entries: 342,
      sha256: '59233fefccdc4d3e35ea131d0d5a7897358b4d6bfbb37e3c4147b91c0591ba36',
    };
    const frozen = committed.phrases.slice(0, FROZEN.entries);
    expect(frozen).toHaveLength(FROZEN.entries);
    expect(createHash('sha256').update(JSON.stringify(frozen)).digest('hex')).toBe(FROZEN.sha256);
  });

  it('has unique IDs, phrases of 2+ words and no word in more phrases than the cap', () => {
    expect(new Set(committed.phrases.map(([id]) => id)).size).toBe(committed.phrases.length);
    const uses = new Map<string, number>();
    for (const phrase of committedPhrases) {
      expect(phrase.words.length).toBeGreaterThanOrEqual(MIN_PHRASE_WORDS);
      expect(new Set(phrase.words).size).toBe(phrase.words.length);
      for (const word of phrase.words) uses.set(word, (uses.get(word) ?? 0) + 1);
    }
    expect(Math.max(...uses.values())).toBeLessThanOrEqual(MAX_PHRASES_PER_WORD);
  });

  it('appends the phrase of a changed literal and keeps every entry it had', () => {
    const sources = readSources();
    const target = sources.findIndex((source) => source.text.includes('is reserved for documentation'));
    expect(target).toBeGreaterThanOrEqual(0);
    const changed = sources.map((source, i) =>
      i === target
        ? {
            ...source,
            text: source.text.replace(
              'is reserved for documentation',
              'is reserved for documentation and tutorial examples',
            ),
          }
        : source,
    );
    const next = phraseVocabulary(committed, changed);
    expect(next.phrases.slice(0, committed.phrases.length)).toEqual(committed.phrases);
    // Two: the description's own phrase and its finding's (title and description together).
    const added = next.phrases.slice(committed.phrases.length);
    expect(added).toHaveLength(2);
    for (const [, words] of added) {
      expect(words.split(' ')).toEqual(expect.arrayContaining(['tutorial', 'examples']));
    }
    const changedPhrases = literalPhrases(changed[target]!).filter((set) => set.includes('tutorial'));
    expect(added.map(([id]) => id).sort()).toEqual(changedPhrases.map((set) => phraseId(set)).sort());
    expect(changedPhrases.some((set) => set.includes('only'))).toBe(true); // the title's word
    // A rerun over the same sources changes nothing more.
    expect(phraseVocabulary(next, changed)).toEqual(next);
  });

  it('takes the complete words of a literal: a word glued to a substitution is left out', () => {
    const text = [
      'const a = `$',
      '{v}abc is the first real phrase of text$',
      '{w}, end`; const b = "one two"; const c = "the one";',
    ].join('');
    expect(literalPhrases({ path: 'a.ts', text })).toEqual([
      ['end', 'first', 'phrase', 'real'],
      ['one', 'two'],
    ]);
  });

  it('keeps a word beside a choice between literals that never glues to it, in place or as a const', () => {
    // Source text with § for $, so that the substitutions stay text here.
    const text = `
      const gaps = failed ? ' (some failed)' : '';
      const a = \`counted §{n} tools§{failed ? \` (some failed: §{x})\` : ''}.\`;
      const b = \`counted §{n} tools§{gaps}.\\nNo risk context\`;
      // An empty branch glues to a letter or a substitution after it; any other value may glue.
      const c = \`first tools§{failed ? '' : ' x'}s\`;
      const d = \`second tools§{failed ? '' : ' x'}§{y}.\`;
      const e = \`third tools§{count}.\`;
      const f = \`fourth open port§{n === 1 ? '' : 's'}\`;
      const g = \`§{failed ? '' : 'x '}fifth tools\`;
    `.replaceAll('§', '$');
    expect(literalPhrases({ path: 'a.ts', text })).toEqual([
      ['failed', 'some'],
      ['counted', 'tools'],
      ['failed', 'some'],
      ['context', 'counted', 'risk', 'tools'],
      ['fourth', 'open'],
      ['fifth', 'tools'],
    ]);
  });

  it("takes a finding's title and description together as one phrase, besides each literal's own", () => {
    const text = [
      "const f = { code: 'x', title: 'Bogon address seen', description: `$",
      '{value} is not routable on the internet`, score: 30 };',
      "const g = { title: cond ? 'Alpha beta' : 'Gamma delta', description: 'Never both' };",
    ].join('');
    expect(literalPhrases({ path: 'a.ts', text })).toEqual([
      ['address', 'bogon', 'internet', 'routable', 'seen'],
      ['address', 'bogon', 'seen'],
      ['internet', 'routable'],
      // A title with alternatives is no single literal: no finding phrase, only the literals'.
      ['alpha', 'beta'],
      ['delta', 'gamma'],
      ['both', 'never'],
    ]);
  });
});
