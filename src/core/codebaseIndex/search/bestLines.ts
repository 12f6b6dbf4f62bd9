import type { CodeLine, CodeSearchHit, FileFacts, SymbolDef } from '../codeIndexTypes';
import { bodyIsAboutIt, bodyTerms, definitionWords } from './definitionWords';
import type { RankedFile } from './rankFiles';
import { linesWithTerms } from './termProximity';

const MAX_SYMBOLS = 3;
const MAX_LINES = 3;
const MAX_LINE_CHARS = 160;
/** Lines looked at per file: enough to find the best few in a file that mentions the query everywhere. */
const MAX_CANDIDATE_LINES = 200;

/**
 * How much each of the question's words says, 0 to 1: its idf over the rarest word's. Without it, every word says as
 * much. The idf counts the index's fields (names, docs, heads, most used names), so a word they never hold, a number,
 * counts as rare.
 */
export type TermWeights = ReadonlyMap<string, number>;

export function termWeights(idf: ReadonlyMap<string, number>): TermWeights {
  let rarest = 0;
  for (const value of idf.values()) rarest = Math.max(rarest, value);
  return new Map([...idf].map(([stem, value]) => [stem, rarest > 0 ? value / rarest : 1]));
}

/**
 * What makes a ranked file worth opening, in a few lines: its definitions that the query names exactly,
 * whose names and doc lines share its words, or whose bodies hold the most of the question's different words (so
 * `should_bypass_proxies` comes up for "checks the NO_PROXY variable"); then the best of those lines,
 * each with the definition it sits in, best first (a short list shows the first). Words count by their weight: in
 * requests, "request" is on nearly every line and says little, "redirect" in a few files and says more.
 */
export function bestLinesOf(file: RankedFile, facts: FileFacts, text: string | undefined, withLines: boolean, weights?: TermWeights): CodeSearchHit {
  const wanted = new Set(file.terms);
  const weightOf = (stem: string) => weights?.get(stem) ?? 1;
  const exact = new Set(file.exact.map((ref) => ref.index));
  const candidates = withLines && text !== undefined && wanted.size ? matchingLines(text, wanted, weightOf) : [];
  const scored = facts.symbols
    .map((symbol, index) => ({
      symbol,
      score: (exact.has(index) ? 100 : 0) + 2 * overlap(definitionWords(symbol), wanted, weightOf) + bodyScore(symbol, candidates, weightOf),
    }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.symbol.line - b.symbol.line)
    .slice(0, MAX_SYMBOLS)
    .map(({ symbol }) => ({ name: symbol.name, kind: symbol.kind, line: symbol.line, signature: symbol.signature }));
  const shown = new Set(scored.map((symbol) => symbol.line));
  const lines = candidates
    .filter((line) => !shown.has(line.line))
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, MAX_LINES)
    .map(({ line, text }) => withinDefinition({ line, text }, facts.symbols));
  return { path: facts.path, score: Math.round(file.score * 1000) / 1000, symbols: scored, lines };
}

/**
 * What the question's words in a definition's own lines weigh: each different word once, by its weight. Summing every
 * line that holds one favoured long definitions, whatever they do: requests' 45-line `Response.__init__` came before
 * `raise_for_status` for "throws an exception when a response comes back with a 4xx or 5xx status", and gin's
 * `addRoute` before the 180-line `getValue` that the route-tree question asks for (`npm run bench -- --only "index matches"`:
 * the definition a written question asks for first in its file's entry for 28 → 34 of 47; for the questions from
 * history, a definition the commit changed first for 145 → 154 of 232 entries).
 */
function bodyScore(symbol: SymbolDef, lines: ReadonlyArray<{ line: number; terms: readonly string[] }>, weightOf: (stem: string) => number): number {
  if (!bodyIsAboutIt(symbol)) return 0;
  let score = 0;
  for (const term of bodyTerms(symbol, lines)) score += weightOf(term);
  return score;
}

/** The innermost definition around a line, named with it: `in should_bypass_proxies`. */
function withinDefinition(line: CodeLine, symbols: readonly SymbolDef[]): CodeLine {
  let inner: SymbolDef | undefined;
  for (const symbol of symbols) {
    if (symbol.line < line.line && line.line <= symbol.endLine && (!inner || symbol.line >= inner.line)) inner = symbol;
  }
  return inner ? { ...line, within: inner.container ? `${inner.container}.${inner.name}` : inner.name } : line;
}

function overlap(words: ReadonlySet<string>, wanted: Set<string>, weightOf: (stem: string) => number): number {
  let sum = 0;
  for (const word of words) if (wanted.has(word)) sum += weightOf(word);
  return sum;
}

/** A line that is one name and perhaps a comma: an import list's item, an enum member, an argument. */
const BARE_NAME = /^[\w$.]+,?$/;

/**
 * Lines that hold query words, scored by the weight of the different ones; at most MAX_CANDIDATE_LINES of them. A
 * bare name on a line of its own says nothing the name does not (`TYPE_CHECKING,` in an import list matched
 * "checking" in three of requests' files), and would take the place of a line that does.
 */
function matchingLines(text: string, wanted: Set<string>, weightOf: (stem: string) => number): Array<CodeLine & { score: number; terms: readonly string[] }> {
  return linesWithTerms(text, wanted, MAX_CANDIDATE_LINES)
    .filter((found) => !BARE_NAME.test(found.text.trim()))
    .map((found) => ({
      line: found.line,
      text: shorten(found.text.trim()),
      terms: found.terms,
      // Rounded, so that two lines with the same words tie whatever order they say them in.
      score: Math.round(found.terms.reduce((sum, stem) => sum + weightOf(stem), 0) * 1e6) / 1e6,
    }));
}

function shorten(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
