/**
 * Word segmentation of a domain label against the English word list (and the brand keywords), by
 * dynamic programming over split points: each known word costs by its frequency level (common words
 * are cheap), each character left unexplained costs more than any word. `medicalnewstoday` →
 * medical · news · today; `xj4k9q2mzp7rwt` → nothing explained.
 */

export interface Segmentation {
  /** The label's pieces in order; unexplained runs of characters are pieces too. */
  pieces: string[];
  /** The pieces that are known words or keywords (length ≥ 2). */
  words: string[];
  /** Share of the label's characters inside known words of three or more characters, 0-1. */
  explained: number;
}

const MAX_WORD = 24;
const UNKNOWN_CHAR_COST = 4;
/** Two-letter words only from the most common levels (the lists hold many obscure ones: aa, ae...). */
const SHORT_WORD_MAX_LEVEL = 20;

function wordCost(level: number): number {
  // A word costs 1 plus a little more the rarer it is (levels 10 … 60 → 1.5 … 4).
  return 1 + level / 20;
}

/**
 * `extra` are keywords with their own cost (brand names: cheaper than a split into two words, so
 * `dropbox` stays one piece).
 */
export function segment(
  label: string,
  words: ReadonlyMap<string, number>,
  extra: ReadonlyMap<string, unknown> = new Map(),
): Segmentation {
  const chars = [...label];
  const n = chars.length;
  const best: number[] = new Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from: number[] = new Array(n + 1).fill(-1);
  const known: boolean[] = new Array(n + 1).fill(false);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    // One unexplained character.
    if (best[end - 1]! + UNKNOWN_CHAR_COST < best[end]!) {
      best[end] = best[end - 1]! + UNKNOWN_CHAR_COST;
      from[end] = end - 1;
      known[end] = false;
    }
    for (let start = Math.max(0, end - MAX_WORD); start <= end - 2; start++) {
      if (best[start] === Number.POSITIVE_INFINITY) continue;
      const piece = chars.slice(start, end).join('');
      let cost: number | undefined;
      if (extra.has(piece)) cost = 1;
      else {
        const level = words.get(piece);
        if (level !== undefined && (piece.length > 2 || level <= SHORT_WORD_MAX_LEVEL))
          cost = wordCost(level);
      }
      if (cost !== undefined && best[start]! + cost < best[end]!) {
        best[end] = best[start]! + cost;
        from[end] = start;
        known[end] = true;
      }
    }
  }
  const pieces: { text: string; known: boolean }[] = [];
  for (let end = n; end > 0; end = from[end]!) {
    pieces.push({ text: chars.slice(from[end]!, end).join(''), known: known[end]! });
  }
  pieces.reverse();
  // Merge runs of unexplained characters into one piece.
  const merged: { text: string; known: boolean }[] = [];
  for (const piece of pieces) {
    const last = merged.at(-1);
    if (last && !last.known && !piece.known) last.text += piece.text;
    else merged.push({ ...piece });
  }
  const explainedChars = merged
    .filter((p) => p.known && [...p.text].length >= 3)
    .reduce((sum, p) => sum + [...p.text].length, 0);
  return {
    pieces: merged.map((p) => p.text),
    words: merged.filter((p) => p.known).map((p) => p.text),
    explained: n === 0 ? 0 : explainedChars / n,
  };
}
