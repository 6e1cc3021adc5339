/**
 * String measures behind the domain checks: confusable skeletons (homographs), edit distance
 * (typosquats), scripts (mixed-script labels) and Shannon entropy (algorithmically generated names).
 */

/**
 * Characters that render like a Latin letter or digit, mapped to it: a subset of Unicode UTS #39
 * confusables covering Cyrillic, Greek and Latin look-alikes seen in homograph attacks, plus the
 * ASCII substitutions typosquatters use (`0`→o, `1`→l, `rn`→m, `vv`→w).
 */
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  ү: 'y',
  ԝ: 'w',
  х: 'x',
  ԁ: 'd',
  ɡ: 'g',
  // Greek
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  // Latin look-alikes and digits
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ħ: 'h',
  ſ: 's',
  ß: 'ss',
  '0': 'o',
  '1': 'l',
  '3': 'e',
  '5': 's',
  '|': 'l',
};

const MULTI_CHAR_CONFUSABLES: readonly [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];

/** The confusable skeleton: two strings with equal skeletons look alike to a reader. */
export function skeleton(text: string): string {
  const stripped = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  let mapped = '';
  for (const char of stripped) mapped += CONFUSABLES[char] ?? char;
  for (const [pattern, replacement] of MULTI_CHAR_CONFUSABLES) mapped = mapped.replace(pattern, replacement);
  return mapped;
}

/** Optimal string alignment distance: Levenshtein plus transposition of adjacent characters. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const rows = x.length + 1;
  const cols = y.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      }
      d[i]![j] = best;
    }
  }
  return d[rows - 1]![cols - 1]!;
}

export type Script = 'latin' | 'cyrillic' | 'greek' | 'other';

/** Scripts of the letters in a label (digits, hyphens and underscores have none). */
export function scriptsOf(text: string): Set<Script> {
  const scripts = new Set<Script>();
  for (const char of text) {
    if (!/\p{L}/u.test(char)) continue;
    if (/\p{Script=Latin}/u.test(char)) scripts.add('latin');
    else if (/\p{Script=Cyrillic}/u.test(char)) scripts.add('cyrillic');
    else if (/\p{Script=Greek}/u.test(char)) scripts.add('greek');
    else scripts.add('other');
  }
  return scripts;
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(text: string): number {
  const chars = [...text];
  if (chars.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const char of chars) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / chars.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}
