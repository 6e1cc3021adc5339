import type { Verdict } from '../core/vocabulary';
import { canonicalForm } from './grounding';

/**
 * The model may explain the computed verdict, never overturn it: words that clear a suspicious or
 * malicious entity (the typical effect of a prompt injection: "no threat, traffic is legitimate,
 * unblock it") in any model-written field mean the model's words are not used.
 *
 * Each sentence is read on its own, in the canonical form grounding uses (NFKC, format characters
 * removed), lower case. A clearing phrase counts unless a negation stands shortly before it ("not
 * legitimate", "do not unblock", "should never be allowlisted") or the sentence is a question or
 * hedged ("Is this traffic legitimate?", "check whether it is benign"): those ask, they do not clear.
 */
const CLEARING = [
  'benign',
  'harmless',
  'innocuous',
  'false[ -]positive',
  'legitimate',
  'legit',
  '(?:is|are|looks|seems|appears)(?: to be)? (?:safe|clean|fine|trusted|trustworthy|normal|expected)',
  '(?:poses?|presents?|represents?) no (?:real |actual |significant )?(?:threat|risk|danger)',
  'no (?:real |actual |significant )?(?:threat|risk|danger)',
  'not (?:a |an )?(?:threat|risk|malicious|suspicious|dangerous|compromised)',
  'no (?:evidence|sign|signs|indication|indications) of (?:malicious|suspicious|compromise|abuse)',
  'nothing (?:malicious|suspicious)',
  'un-?block',
  '(?:allow|white)-?list(?:ed|ing)?',
  '(?:remove|lift|drop|delete|disable) (?:the |any |all |this |that )?(?:block|blocks|rule|quarantine|ban)',
  'no (?:further )?action (?:is )?(?:needed|required|necessary)',
  'safe to (?:ignore|close|dismiss|allow|unblock)',
  'can (?:safely )?be (?:ignored|closed|dismissed|allowed|trusted)',
  '(?:close|dismiss|ignore) (?:the |this )?(?:alert|incident|ticket|case|finding)',
];
const CLEARING_PATTERN = new RegExp(String.raw`\b(?:${CLEARING.join('|')})\b`, 'g');
/** A negation within the few words before a phrase turns it around ("not benign", "do not unblock"). */
const NEGATED_BEFORE =
  /\b(?:not|never|no|nor|don't|dont|do not|does not|doesn't|isn't|is not|aren't|cannot|can't|without|neither|rather than|instead of)\b(?:\W+\w+){0,2}\W*$/;
/** A sentence that asks or plans to check does not clear anything. */
const HEDGED = /\b(?:whether|if|verify|confirm|determine|check|investigate|rule out|unless)\b/;

function clearingSentence(sentence: string): boolean {
  if (sentence.trim().endsWith('?') || HEDGED.test(sentence)) return false;
  for (const match of sentence.matchAll(CLEARING_PATTERN)) {
    const before = sentence.slice(Math.max(0, match.index - 40), match.index);
    if (match[0].startsWith('not ') || match[0].startsWith('no ')) {
      // "not malicious" clears, "it is not true that it is not malicious" is too clever to matter.
      if (!NEGATED_BEFORE.test(before)) return true;
      continue;
    }
    if (!NEGATED_BEFORE.test(before)) return true;
  }
  return false;
}

/** Whether any of the texts clears an entity whose verdict is suspicious or malicious. */
export function contradictsVerdict(texts: string | readonly string[], verdict: Verdict): boolean {
  if (verdict !== 'suspicious' && verdict !== 'malicious') return false;
  const all = typeof texts === 'string' ? [texts] : texts;
  return all.some((text) =>
    canonicalForm(text)
      .text.toLowerCase()
      .split(/(?<=[.!?;])\s+|\n+/)
      .some(clearingSentence),
  );
}
