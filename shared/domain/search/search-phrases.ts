import { ENTITY_TYPES, TYPE_LABELS } from '../core/entity';
import { VERDICTS } from '../core/vocabulary';
import vocabulary from './generated/search-phrases.json';
import { wordsOf } from './search-terms';

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
 * most 6 phrases.
 *
 * Words a structural term names stand in for the word too: the verdict (`vd:benign` for the word
 * "benign") and the subject type's label (`t:ip` for "ip" and "address", as in "IP address
 * 203.0.113.7"), which the engine's summaries always write, and the words the default persona's
 * summary always writes for a verdict (`vd:unknown` for "evidence", "sources", "risk" and
 * "indicators": VERDICT_SUMMARY_WORDS). A session with such a term and word is
 * not posted under the word; a word query also reads the term's partition, keeping only postings
 * that have the word (the store checks the word inside every posting it reads from a partition other
 * than the word's own), so a session without the word in its text is never returned for it. A word
 * query therefore reads at most 6 phrase partitions, one verdict and one type partition besides its own.
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

/**
 * Words the rules engine's default persona (SOC Analyst) writes in the summary of every session of a
 * verdict, beyond the verdict's own name: an unknown verdict's summary reads "UNKNOWN · no evidence
 * in N sources · …" when nothing was found ("UNKNOWN · risk N/100 · …" otherwise) and always "No risk
 * indicators" or "Indicators:" (report/personas.ts; a unit test pins these words to its output). The
 * verdict's posting stands in for them as for its name: nearly every posting read from it for such a
 * word has the word, so a page costs about what the word's own partition would.
 */
export const VERDICT_SUMMARY_WORDS: Readonly<Partial<Record<(typeof VERDICTS)[number], readonly string[]>>> =
  {
    unknown: ['evidence', 'sources', 'risk', 'indicators'],
  };

/** The structural terms whose partitions stand in for a word: `word` → [`vd:<verdict>`, `t:<type>`]. */
const STRUCTURAL_COVERS: ReadonlyMap<string, readonly string[]> = (() => {
  const covers = new Map<string, string[]>();
  const add = (word: string, term: string) => covers.set(word, [...(covers.get(word) ?? []), term]);
  for (const verdict of VERDICTS) {
    for (const word of [...wordsOf(verdict), ...(VERDICT_SUMMARY_WORDS[verdict] ?? [])])
      add(word, `vd:${verdict}`);
  }
  for (const type of ENTITY_TYPES) for (const word of wordsOf(TYPE_LABELS[type])) add(word, `t:${type}`);
  return covers;
})();

export function phraseIndexOf(phrases: readonly Phrase[]): PhraseIndex {
  const containing = new Map<string, Phrase[]>();
  for (const phrase of phrases) {
    for (const word of phrase.words) containing.set(word, [...(containing.get(word) ?? []), phrase]);
  }
  return {
    postingTermsFor(findable) {
      const words = new Set(findable.filter((t) => t.startsWith(WORD)).map((t) => t.slice(WORD.length)));
      const present = new Set(findable);
      // Words the session's own verdict or type term stands in for are covered before any phrase.
      const covered = new Set(
        [...words].filter((word) => STRUCTURAL_COVERS.get(word)?.some((term) => present.has(term))),
      );
      const candidates = [...new Set([...words].flatMap((word) => containing.get(word) ?? []))].filter(
        (phrase) => phrase.words.every((word) => words.has(word)),
      );
      // Greedy cover: the phrase covering most words not yet covered, while it covers two or more (a
      // phrase covering one word costs the same posting as the word). Ties: vocabulary order.
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
      const word = term.slice(WORD.length);
      const phrasesOf = containing.get(word) ?? [];
      return [
        term,
        ...phrasesOf.map((phrase) => `${PHRASE}${phrase.id}`),
        ...(STRUCTURAL_COVERS.get(word) ?? []),
      ];
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

/**
 * `w:<word>` → its own partition, those of the phrases containing it and of the structural terms
 * standing in for it (read with the word checked in each posting); any other term → itself.
 */
export function partitionsFor(term: string): string[] {
  return committedIndex().partitionsFor(term);
}
