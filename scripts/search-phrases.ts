import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { foldText, wordsOf } from '../shared/domain/search/search-terms';

/**
 * The phrase vocabulary of the search index (shared/domain/search/search-phrases.ts), generated ahead of time
 * from the rules engine's fixed text and committed: every string or template literal of the files
 * below whose static parts hold at least MIN_PHRASE_WORDS complete words is a phrase (two already:
 * a two-word finding title, posted once instead of twice, saves a write per session), and so is a
 * finding's title and description together (an object literal whose `title` and `description` are
 * both literals: they are always written together, so one posting stands for both). A completed
 * session that has every word of a phrase is posted once under the phrase instead of once per word;
 * a literal's own phrase stays in the file beside its finding's, for a session that has the one but
 * not the other (a report whose term set was cut at 60 terms).
 *
 * The file is append-only: deployed sessions have postings under the phrase IDs it already lists, and
 * a word query keeps reading them, so an entry is never changed or removed; a new or changed literal
 * appends a phrase. A word belongs to at most MAX_PHRASES_PER_WORD phrases (earlier entries first), so
 * a word query reads at most that many partitions more; a new phrase leaves out a word that is already
 * in that many (the word is then posted on its own). `npm run search:phrases` appends; a unit test
 * fails when the committed file lags behind the sources.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SEARCH_PHRASES_PATH = resolve(ROOT, 'shared/domain/search/generated/search-phrases.json');

export const MIN_PHRASE_WORDS = 2;
export const MAX_PHRASES_PER_WORD = 6;

/** Where finding titles, descriptions and persona summaries are written, in the order phrases are taken. */
export function phraseSourceFiles(): string[] {
  const inDir = (dir: string, keep: (name: string) => boolean) =>
    readdirSync(resolve(ROOT, dir))
      .filter(keep)
      .sort()
      .map((name) => `${dir}/${name}`);
  return [
    ...inDir('shared/domain/investigation/tools', (n) => /^tool-.*\.ts$/.test(n)),
    'shared/domain/investigation/tools/mail-provider.ts',
    'shared/domain/intel/mappers-ip-reputation.ts',
    'shared/domain/intel/mappers-indicators.ts',
    ...inDir('shared/domain/investigation/report', (n) => /^personas.*\.ts$/.test(n)),
    'shared/domain/investigation/report/report.ts',
  ];
}

export interface SourceFile {
  path: string;
  text: string;
}

export type PhraseEntry = [id: string, words: string];

export interface PhraseFile {
  phrases: PhraseEntry[];
}

/**
 * The words of a literal's static part that are whole words whatever is substituted: a word touching
 * a `${…}` (no separator in between) may be glued to the substituted text, so it is left out.
 */
function completeWords(text: string, gluedBefore: boolean, gluedAfter: boolean): string[] {
  const tokens = foldText(text).split(/[^\p{L}\p{N}]+/u);
  if (gluedBefore) tokens.shift();
  if (gluedAfter) tokens.pop();
  return tokens.flatMap((token) => wordsOf(token));
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** The initial values of a file's `const` declarations by name (several where functions reuse a name). */
type Consts = ReadonlyMap<string, readonly ts.Expression[]>;

function constsOf(file: ts.SourceFile): Consts {
  const consts = new Map<string, ts.Expression[]>();
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclarationList(node) &&
      node.flags & ts.NodeFlags.Const &&
      node.declarations.every((d) => ts.isIdentifier(d.name))
    ) {
      for (const { name, initializer } of node.declarations) {
        const key = (name as ts.Identifier).text;
        if (initializer) consts.set(key, [...(consts.get(key) ?? []), initializer]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return consts;
}

/**
 * Whether a substitution's value may begin (`edge` 'start') or end ('end') with a letter or digit,
 * gluing to the static text beside it. Only a choice between literals is known, written in place or
 * as a `const` of the file (every one of that name), such as
 * `tools${failed ? ` (did not complete: …)` : ''}.`: each branch is looked at, an empty one by the
 * static text that then touches the word (`beside`: undefined at the literal's start or end, which
 * are word boundaries; '' where that is another substitution). Anything else may glue. A wrong
 * guess (a parameter shadowing a const of the same name) only makes a phrase that no session has in
 * full: the vocabulary decides what is posted, never what is found.
 */
function mayGlue(
  expression: ts.Expression,
  edge: 'start' | 'end',
  beside: string | undefined,
  consts: Consts,
  depth = 0,
): boolean {
  let value = expression;
  while (ts.isParenthesizedExpression(value)) value = value.expression;
  if (depth > 4) return true;
  if (ts.isIdentifier(value)) {
    const values = consts.get(value.text);
    return !values || values.some((v) => mayGlue(v, edge, beside, consts, depth + 1));
  }
  if (ts.isConditionalExpression(value)) {
    return (
      mayGlue(value.whenTrue, edge, beside, consts, depth + 1) ||
      mayGlue(value.whenFalse, edge, beside, consts, depth + 1)
    );
  }
  let text: string;
  if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) text = value.text;
  else if (ts.isTemplateExpression(value)) {
    // A template that begins (ends) with a substitution: unknown.
    text = edge === 'start' ? value.head.text : (value.templateSpans.at(-1)?.literal.text ?? '');
    if (text === '') return true;
  } else return true;
  // An empty branch: the word then touches the static text on the substitution's other side.
  const touching = text !== '' ? text : beside;
  if (touching === undefined) return false;
  const character = edge === 'start' ? touching.at(0) : touching.at(-1);
  return character === undefined || WORD_CHARACTER.test(character);
}

/** The word set of every string and template literal of a source file that is a phrase, in source order. */
export function literalPhrases(source: SourceFile): string[][] {
  return literalsOf(source).map((literal) => literal.words);
}

/** Names of what holds the text a session is indexed under: finding titles, descriptions, summaries. */
const INDEXED_TEXT = new Set(['title', 'description', 'summary']);

interface Literal {
  words: string[];
  /**
   * `finding`: a finding's title and description together; `indexed`: a literal inside a `title:` /
   * `description:` property or a `summary` method (text search indexes); `other`: any other literal.
   */
  kind: 'finding' | 'indexed' | 'other';
}

function nameOf(node: ts.Node): string | undefined {
  if (
    (ts.isPropertyAssignment(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isFunctionDeclaration(node) ||
      ts.isVariableDeclaration(node)) &&
    node.name &&
    (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))
  ) {
    return node.name.text;
  }
  return undefined;
}

/** The complete words of a string or template literal's static parts; undefined for anything else. */
function staticWords(node: ts.Node, consts: Consts): string[] | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return wordsOf(node.text);
  if (!ts.isTemplateExpression(node)) return undefined;
  const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
  // The static text on the far side of substitution `i` from part `j`: undefined at the literal's
  // start or end (a word boundary), '' where another substitution follows (unknown).
  const beside = (j: number) => {
    const text = parts[j] as string;
    return text !== '' ? text : j === 0 || j === parts.length - 1 ? undefined : '';
  };
  const spans = node.templateSpans;
  return parts.flatMap((part, i) => {
    const before = spans[i - 1];
    const after = spans[i];
    return completeWords(
      part,
      before !== undefined && mayGlue(before.expression, 'end', beside(i - 1), consts),
      after !== undefined && mayGlue(after.expression, 'start', beside(i + 1), consts),
    );
  });
}

/** The `title` and `description` literals of a finding written as an object literal, when both are literals. */
function findingTexts(node: ts.ObjectLiteralExpression, consts: Consts): ts.Node[] | undefined {
  const texts = ['title', 'description'].map(
    (name) =>
      node.properties.find(
        (property): property is ts.PropertyAssignment =>
          ts.isPropertyAssignment(property) && ts.isIdentifier(property.name) && property.name.text === name,
      )?.initializer,
  );
  return texts.every((text) => text !== undefined && staticWords(text, consts) !== undefined)
    ? (texts as ts.Node[])
    : undefined;
}

function literalsOf(source: SourceFile): Literal[] {
  const file = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, false);
  const consts = constsOf(file);
  const literals: Literal[] = [];
  const add = (words: string[], kind: Literal['kind']) => {
    const set = [...new Set(words)].sort();
    if (set.length >= MIN_PHRASE_WORDS) literals.push({ words: set, kind });
  };
  const visit = (node: ts.Node, holder: string | undefined) => {
    // Module specifiers are paths, not text an analyst reads: a file move must not add phrases.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    const finding = ts.isObjectLiteralExpression(node) ? findingTexts(node, consts) : undefined;
    if (finding)
      add(
        finding.flatMap((text) => staticWords(text, consts) ?? []),
        'finding',
      );
    const words = staticWords(node, consts);
    if (words) add(words, INDEXED_TEXT.has(holder ?? '') ? 'indexed' : 'other');
    const inner = nameOf(node) ?? holder;
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(file, undefined);
  return literals;
}

/**
 * A phrase's ID: 8 base64url characters of the SHA-256 of the literal's sorted words (all of them, also
 * those the fan-out cap leaves out), so a literal already in the file is recognised on every run.
 * Computed here, stored in the file: the runtime needs no hash.
 */
export function phraseId(words: readonly string[]): string {
  return createHash('sha256')
    .update([...words].sort().join(' '))
    .digest('base64url')
    .slice(0, 8);
}

/** The vocabulary: every entry of `existing` unchanged, then the new phrases of `sources`. */
export function phraseVocabulary(
  existing: PhraseFile | undefined,
  sources: readonly SourceFile[],
): PhraseFile {
  const phrases: PhraseEntry[] = [...(existing?.phrases ?? [])];
  const byId = new Map<string, string[]>();
  const uses = new Map<string, number>();
  const take = ([id, text]: PhraseEntry) => {
    const words = text.split(' ');
    byId.set(id, words);
    for (const word of words) uses.set(word, (uses.get(word) ?? 0) + 1);
  };
  for (const entry of phrases) take(entry);
  // Whole findings first, then the other text the index reads (titles, descriptions, persona
  // summaries), then the rest, each in file order: the fan-out cap then gives a word's phrase slots
  // to the text sessions have.
  const all = sources.flatMap(literalsOf);
  const literals = (['finding', 'indexed', 'other'] as const).flatMap((kind) =>
    all.filter((literal) => literal.kind === kind).map((literal) => literal.words),
  );
  for (const words of literals) {
    const id = phraseId(words);
    const known = byId.get(id);
    if (known) {
      if (!known.every((word) => words.includes(word))) {
        throw new Error(`phrase ID ${id} of "${words.join(' ')}" is taken by "${known.join(' ')}"`);
      }
      continue;
    }
    const kept = words.filter((word) => (uses.get(word) ?? 0) < MAX_PHRASES_PER_WORD);
    // Too few words left: no new phrase (stays true as the file grows, so a rerun skips the literal
    // again and the file is a fixed point). A phrase inside a longer one is kept: it is what a session
    // that has only its part of the longer one is posted under.
    if (kept.length < MIN_PHRASE_WORDS) continue;
    const entry: PhraseEntry = [id, kept.join(' ')];
    phrases.push(entry);
    take(entry);
  }
  return { phrases };
}

/** The file's text: one phrase per line, so an append is a diff of added lines. */
export function phraseFileText(vocabulary: PhraseFile): string {
  const lines = vocabulary.phrases.map((entry) => JSON.stringify(entry));
  return `{"phrases": [\n${lines.join(',\n')}\n]}\n`;
}

export function readSources(paths: readonly string[] = phraseSourceFiles()): SourceFile[] {
  return paths.map((path) => ({ path, text: readFileSync(resolve(ROOT, path), 'utf8') }));
}

export function committedVocabulary(): PhraseFile | undefined {
  return existsSync(SEARCH_PHRASES_PATH)
    ? (JSON.parse(readFileSync(SEARCH_PHRASES_PATH, 'utf8')) as PhraseFile)
    : undefined;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const before = committedVocabulary()?.phrases.length ?? 0;
  const vocabulary = phraseVocabulary(committedVocabulary(), readSources());
  writeFileSync(SEARCH_PHRASES_PATH, phraseFileText(vocabulary));
  console.log(
    `wrote ${relative(ROOT, SEARCH_PHRASES_PATH)}: ${vocabulary.phrases.length} phrases (${vocabulary.phrases.length - before} new)`,
  );
}
