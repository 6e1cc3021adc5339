/**
 * String measures behind the domain checks: edit distance (typosquats), scripts (mixed-script labels)
 * and Shannon entropy (algorithmically generated names). Confusable skeletons come from Unicode's data
 * (shared/domain/names/name-data.ts).
 */

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
