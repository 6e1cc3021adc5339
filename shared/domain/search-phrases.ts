import vocabulary from './generated/search-phrases.json';

/**
 * Phrase postings: the search index posts a completed session once per static phrase of the rules
 * engine's text (a finding description's 20 words) instead of once per word, with exactly the
 * results of a posting per word.
 *
 * The session's findable terms (`termsForSession`) are unchanged and still checked inside every
 * posting; only the partitions it is posted under change:
 * - a phrase is posted (`x:<id>`) only when the session has EVERY word of it, and
 * - every findable word is posted on its own unless a posted phrase contains it,
 * and a word query reads the word's partition plus the partition of every phrase containing it
 * (`partitionsFor`). So a session with the word is in one of those partitions, and a session in one
 * of them has the word: exact for any text, the analyst's free text included (a phrase matches only
 * when all its words are really there).
 *
 * The vocabulary (generated/search-phrases.json, `npm run search:phrases`, scripts/search-phrases.ts)
 * is append-only, so the phrases of postings already written keep being read, and a word is in at
 * most 3 phrases, so a word query reads at most 4 partitions.
 */

export interface Phrase {
  id: string;
  words: readonly string[];
}

export interface PhraseIndex {
  /** The terms a session with these findable terms is posted under. */
  postingTermsFor(findable: readonly string[]): string[];
  /** The partitions whose postings together are exactly the sessions having `term`. */
  partitionsFor(term: string): string[];
}

const WORD = 'w:';
const PHRASE = 'x:';

export function phraseIndexOf(phrases: readonly Phrase[]): PhraseIndex {
  const containing = new Map<string, Phrase[]>();
  for (const phrase of phrases) {
    for (const word of phrase.words) containing.set(word, [...(containing.get(word) ?? []), phrase]);
  }
  return {
    postingTermsFor(findable) {
      const words = new Set(findable.filter((t) => t.startsWith(WORD)).map((t) => t.slice(WORD.length)));
      const candidates = [...new Set([...words].flatMap((word) => containing.get(word) ?? []))].filter(
        (phrase) => phrase.words.every((word) => words.has(word)),
      );
      // Greedy cover: the phrase covering most words not yet covered, while it covers two or more (a
      // phrase covering one word costs the same posting as the word). Ties: vocabulary order.
      const covered = new Set<string>();
      const posted: Phrase[] = [];
      for (;;) {
        let best: Phrase | undefined;
        let bestGain = 1;
        for (const phrase of candidates) {
          const gain = phrase.words.filter((word) => !covered.has(word)).length;
          if (gain > bestGain) [best, bestGain] = [phrase, gain];
        }
        if (!best) break;
        posted.push(best);
        for (const word of best.words) covered.add(word);
      }
      return [
        ...findable.filter((t) => !t.startsWith(WORD) || !covered.has(t.slice(WORD.length))),
        ...posted.map((phrase) => `${PHRASE}${phrase.id}`),
      ];
    },
    partitionsFor(term) {
      if (!term.startsWith(WORD)) return [term];
      const phrasesOf = containing.get(term.slice(WORD.length)) ?? [];
      return [term, ...phrasesOf.map((phrase) => `${PHRASE}${phrase.id}`)];
    },
  };
}

let committed: PhraseIndex | undefined;

/** The index of the committed vocabulary, built on first use. */
function committedIndex(): PhraseIndex {
  committed ??= phraseIndexOf(
    (vocabulary.phrases as [string, string][]).map(([id, words]) => ({ id, words: words.split(' ') })),
  );
  return committed;
}

/**
 * The terms a session is posted under: its non-word terms, a phrase term for each phrase chosen among
 * those whose words it all has, and its words that no chosen phrase contains.
 */
export function postingTermsFor(findable: readonly string[]): string[] {
  return committedIndex().postingTermsFor(findable);
}

/** `w:<word>` → its own partition and those of the phrases containing it; any other term → itself. */
export function partitionsFor(term: string): string[] {
  return committedIndex().partitionsFor(term);
}
