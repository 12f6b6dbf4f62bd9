import { readFileSync } from 'node:fs';
import type { CodeLine, CodeSearchHit, FileFacts, SymbolDef } from '../codeIndexTypes';
import { splitIdentifier, stemTerm } from './identifierWords';
import type { RankedFile } from './rankFiles';

const MAX_SYMBOLS = 3;
const MAX_LINES = 3;
const MAX_LINE_CHARS = 160;
const MAX_READ_BYTES = 256 * 1024;
/** Lines looked at per file: enough to find the best few in a file that mentions the query everywhere. */
const MAX_CANDIDATE_LINES = 200;

/** A definition this long is a class or module: the query's words inside it say little about it. */
const MAX_BODY_LINES = 150;

/**
 * What makes a ranked file worth opening, in a few lines: its definitions that the query names exactly,
 * whose names and doc lines share its words, or whose bodies hold the lines that do (so
 * `should_bypass_proxies` comes up for "checks the NO_PROXY variable"); then the best of those lines,
 * each with the definition it sits in.
 */
export function bestLinesOf(file: RankedFile, facts: FileFacts, absolute: string | undefined, withLines: boolean): CodeSearchHit {
  const wanted = new Set(file.terms);
  const exact = new Set(file.exact.map((ref) => ref.index));
  const candidates = withLines && absolute && wanted.size ? matchingLines(absolute, wanted) : [];
  const scored = facts.symbols
    .map((symbol, index) => ({ symbol, score: (exact.has(index) ? 100 : 0) + 2 * overlap(wordsOf(symbol), wanted) + bodyScore(symbol, candidates) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.symbol.line - b.symbol.line)
    .slice(0, MAX_SYMBOLS)
    .map(({ symbol }) => ({ name: symbol.name, kind: symbol.kind, line: symbol.line, signature: symbol.signature }));
  const shown = new Set(scored.map((symbol) => symbol.line));
  const lines = candidates
    .filter((line) => !shown.has(line.line))
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, MAX_LINES)
    .sort((a, b) => a.line - b.line)
    .map(({ line, text }) => withinDefinition({ line, text }, facts.symbols));
  return { path: facts.path, score: Math.round(file.score * 1000) / 1000, symbols: scored, lines };
}

/** How many of the query's words a definition's own lines hold (definitions short enough to be about one thing). */
function bodyScore(symbol: SymbolDef, lines: ReadonlyArray<{ line: number; score: number }>): number {
  if (symbol.endLine - symbol.line > MAX_BODY_LINES) return 0;
  let score = 0;
  for (const line of lines) if (line.line > symbol.line && line.line <= symbol.endLine) score += line.score;
  return Math.min(score, 6);
}

/** The innermost definition around a line, named with it: `in should_bypass_proxies`. */
function withinDefinition(line: CodeLine, symbols: readonly SymbolDef[]): CodeLine {
  let inner: SymbolDef | undefined;
  for (const symbol of symbols) {
    if (symbol.line < line.line && line.line <= symbol.endLine && (!inner || symbol.line >= inner.line)) inner = symbol;
  }
  return inner ? { ...line, within: inner.container ? `${inner.container}.${inner.name}` : inner.name } : line;
}

function wordsOf(symbol: SymbolDef): string[] {
  return [...splitIdentifier(symbol.name), ...(symbol.doc ? symbol.doc.toLowerCase().split(/\W+/) : [])].map(stemTerm);
}

function overlap(words: string[], wanted: Set<string>): number {
  let count = 0;
  for (const word of new Set(words)) if (wanted.has(word)) count++;
  return count;
}

/** Lines that hold query words, with how many different ones; at most MAX_CANDIDATE_LINES of them. */
function matchingLines(absolute: string, wanted: Set<string>): Array<CodeLine & { score: number }> {
  let text: string;
  try {
    text = readFileSync(absolute).subarray(0, MAX_READ_BYTES).toString('utf8');
  } catch {
    return []; // changed or gone since it was indexed: the ranking still stands
  }
  // A stem is (nearly always) the start of the words it stands for: one pass of one regular expression over
  // the text finds the few lines worth splitting and stemming, instead of stemming every word of the file.
  const mayMatch = new RegExp([...wanted].map((stem) => stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  const found: Array<CodeLine & { score: number }> = [];
  let line = 1;
  let counted = 0;
  let lastLine = 0;
  for (const match of text.matchAll(mayMatch)) {
    for (let at = text.indexOf('\n', counted); at !== -1 && at < match.index; at = text.indexOf('\n', at + 1)) {
      line++;
      counted = at + 1;
    }
    if (line === lastLine) continue;
    lastLine = line;
    const end = text.indexOf('\n', match.index);
    const raw = text.slice(counted, end === -1 ? text.length : end);
    const words = raw.match(/[A-Za-z0-9_$]+/g) ?? [];
    const score = overlap(words.flatMap(splitIdentifier).map(stemTerm), wanted);
    if (score > 0) found.push({ line, text: shorten(raw.trim()), score });
    if (found.length >= MAX_CANDIDATE_LINES) break;
  }
  return found;
}

function shorten(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
