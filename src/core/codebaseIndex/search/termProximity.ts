import type { SymbolDef } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import { bodyIsAboutIt, bodyTerms, definitionWords } from './definitionWords';
import { roleFactor } from './fileRoles';
import type { FileTextReader } from './fileTexts';
import { wordStems } from './identifierWords';
import type { QuestionTerms } from './questionTerms';

/**
 * The best candidates whose text is read for the proximity of the query's words: a few file reads per question.
 * 15, 20 and 30 found the same files on bench/eval. Measured again on 2026-12-07 (the ranking had changed since): 15
 * and 20 give the same compact lists for all 90 written questions, and retrieval alone the same 70/82 of 90 written
 * (first / top 5), and of 360 from history 242 first with 15 and 241 with 20. 15 reads a quarter fewer files a question.
 */
const PROXIMITY_CANDIDATES = 15;
/**
 * How much the proximity adds for each of its two parts: a file whose few neighbouring lines hold every word of the
 * question gains this much, one whose lines hold a third of the question's weight (by idf) a third of it, and as much
 * again for a definition that holds them (so twice this at most). 1 measured best for the lines on
 * bench/eval (0.7–1.4 alike): more right files moved up than down on every repository, the written questions and
 * those mined from history, on express, click and terraform too; scaled to the best candidate instead, it did a
 * little worse.
 */
const PROXIMITY_WEIGHT = 1;
/** Lines a window spans: a doc comment and the signature under it, or a statement and its neighbours. */
const WINDOW_LINES = 3;
/** Lines with query words looked at per file: the first ones of a file that mentions the query everywhere are enough. */
const MAX_MATCHED_LINES = 400;

/** A line of a file that holds some of the query's words (stems). */
export interface LineTerms {
  line: number;
  text: string;
  terms: string[];
}

/**
 * The lines of `text` that hold any of the `wanted` stems, each with the stems it holds. One pass of one regular
 * expression over the text finds the words that may hold a wanted stem, and only those are split and stemmed, not
 * every word of the file. A Porter stem is the start of the word it stands for but for its last letter, which can
 * be one the word does not have: `entity` → `entiti`, `keys` → `kei`, `storing` → `store`, `capabilities` → `capabl`
 * (no other kind among 120,000 words of code in four repositories); see wordStartsOf.
 */
export function linesWithTerms(text: string, wanted: ReadonlySet<string>, maxLines = MAX_MATCHED_LINES): LineTerms[] {
  const mayMatch = wordStartsOf(wanted);
  if (!mayMatch) return [];
  const found: LineTerms[] = [];
  let line = 1;
  let counted = 0;
  // Each turn starts at the first match of a line, and the scan of that line carries the first match past it over.
  for (let match = mayMatch.exec(text); match;) {
    for (let at = text.indexOf('\n', counted); at !== -1 && at < match.index; at = text.indexOf('\n', at + 1)) {
      line++;
      counted = at + 1;
    }
    const newline = text.indexOf('\n', match.index);
    const end = newline === -1 ? text.length : newline;
    const terms = new Set<string>();
    let wordEnd = 0; // a word with two matches in it is stemmed once
    for (; match && match.index < end; match = mayMatch.exec(text)) {
      if (match.index < wordEnd) continue;
      if (insideLowerCaseRun(text, match.index)) {
        mayMatch.lastIndex = match.index + 1; // a match that starts a part may overlap this one
        continue;
      }
      let wordStart = match.index;
      while (wordStart > counted && isWordChar(text.charCodeAt(wordStart - 1))) wordStart--;
      wordEnd = match.index + match[0].length;
      while (wordEnd < end && isWordChar(text.charCodeAt(wordEnd))) wordEnd++;
      // wordStems remembers each word's stems across searches: code repeats its words.
      for (const stem of wordStems(text.slice(wordStart, wordEnd))) if (stem && wanted.has(stem)) terms.add(stem);
    }
    if (terms.size > 0) found.push({ line, text: text.slice(counted, end), terms: [...terms] });
    if (found.length >= maxLines) break;
  }
  return found;
}

/**
 * What a word holding one of the stems contains, case aside; undefined for no stem (an empty one, a lone `$`, is none).
 * A final `i` stands for the word's `i` or `y` (Porter's only source of it); a final `e` of a longer stem can be one
 * the stemmer added (`storing` → `store`), and `bl` comes from `-bility` (`capabl`): those are left out, which finds
 * a few more words than needed, and wordStems keeps only the right ones.
 */
function wordStartsOf(wanted: ReadonlySet<string>): RegExp | undefined {
  const starts = [...wanted].filter(Boolean).map((stem) => {
    const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (stem.endsWith('i')) return `${escaped.slice(0, -1)}[iy]`;
    return stem.length > 3 && (stem.endsWith('e') || stem.endsWith('bl')) ? escaped.slice(0, -1) : escaped;
  });
  return starts.length ? new RegExp(starts.join('|'), 'gi') : undefined;
}

/**
 * Whether a match starts between two lower-case letters (`th|read`), where no part of an identifier starts: indexTerms
 * splits a word only at its case changes, digits and separators, and keeps it whole from its start. Half the matches
 * in the ranked files are such, and skipping them saves cutting and stemming their words; the terms found are the same
 * as long as wordStartsOf's pattern for a stem matches at the start of every part that has the stem (before, a match
 * inside a word also led to the word's other parts).
 */
function insideLowerCaseRun(text: string, at: number): boolean {
  return at > 0 && isLowerCase(text.charCodeAt(at - 1)) && isLowerCase(text.charCodeAt(at));
}

function isLowerCase(code: number): boolean {
  return code >= 97 && code <= 122;
}

/** A letter, digit, `_` or `$`: what the words of code are made of (identifierWords.ts splits the same way). */
function isWordChar(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

/**
 * How closely a file's text gathers the query's words: the best sum of the (idf-weighted) different query words,
 * two at least, found within a few neighbouring lines. "Recovery returns a middleware that recovers from any panics
 * and writes a 500" says in one line what a router file says across three hundred ("middleware" at the top, a
 * `panic(…)` call far below), and whole-file BM25 cannot tell the two apart. The classical term-proximity signal of
 * text retrieval.
 */
export function proximityScore(lines: readonly LineTerms[], idf: ReadonlyMap<string, number>): number {
  let best = 0;
  for (let start = 0; start < lines.length; start++) {
    const seen = new Set<string>();
    for (let at = start; at < lines.length && lines[at]!.line < lines[start]!.line + WINDOW_LINES; at++) {
      for (const term of lines[at]!.terms) seen.add(term);
    }
    if (seen.size < 2) continue; // one word alone is no proximity: the text score already counts it
    let score = 0;
    for (const term of seen) score += idf.get(term) ?? 0;
    best = Math.max(best, score);
  }
  return best;
}

/**
 * How much of the question one definition of the file gathers, the file's best: the question's words in its name and
 * doc line and the different ones its signature and body hold, by idf (a body too long to be about one thing is left
 * out, definitionWords.ts). A window of three lines finds where a few lines say it; this finds the function that
 * does it, its words spread over its body. Added to the window's score at the same weight (`npm run eval:agent --
 * --retrieval-only`, top-1 / top-5: written 40/49 → 41/49 of 50, history 184/242 → 188/245 of 280: first for
 * more of ripgrep's, gin's, click's and requests' questions, one fewer of terraform's; at twice the weight the written
 * questions fell to 38/47; without the 500-line limit on functions, history 189/245).
 */
export function definitionCoverage(
  symbols: readonly SymbolDef[],
  lines: readonly LineTerms[],
  wanted: ReadonlySet<string>,
  idf: ReadonlyMap<string, number>,
): number {
  let best = 0;
  for (const symbol of symbols) {
    const held = bodyIsAboutIt(symbol) ? bodyTerms(symbol, lines, true) : new Set<string>();
    for (const word of definitionWords(symbol)) if (wanted.has(word)) held.add(word);
    if (held.size < 2) continue; // one word alone: the text score already counts it
    let score = 0;
    for (const term of held) score += idf.get(term) ?? 0;
    best = Math.max(best, score);
  }
  return best;
}

/**
 * The best of the ranked files (sorted, best first) gain by how closely their text gathers the question's words, in a
 * few neighbouring lines and in one definition, weighed by the same role factor as the rest of their score. Files
 * skipped by the index (too large, binary, minified) are not read.
 */
export function addProximity(
  contents: IndexContents,
  wanted: ReadonlySet<string>,
  ranked: ReadonlyArray<{ id: number; score: number }>,
  readText: FileTextReader,
  terms: QuestionTerms,
): void {
  const candidates = ranked.slice(0, PROXIMITY_CANDIDATES);
  if (wanted.size < 2) return; // one word has no neighbours to be near
  const idf = contents.text.idf(wanted);
  const proximity = new Map<number, number>();
  for (const file of candidates) {
    const facts = contents.byId(file.id)!;
    const text = facts.skipped ? undefined : readText(facts.path);
    if (text === undefined) continue;
    const lines = linesWithTerms(text, wanted);
    // The definitions' lines are those of the indexed text: a file edited since (not yet indexed again) has only its window.
    const coverage = readText.isAsIndexed(facts.path, facts) ? definitionCoverage(facts.symbols, lines, wanted, idf) : 0;
    proximity.set(file.id, roleFactor(facts, terms) * (proximityScore(lines, idf) + coverage));
  }
  let whole = 0;
  for (const weight of idf.values()) whole += weight;
  if (whole === 0) return;
  for (const file of candidates) file.score += (PROXIMITY_WEIGHT * (proximity.get(file.id) ?? 0)) / whole;
}
