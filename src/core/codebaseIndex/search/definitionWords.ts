import type { SymbolDef } from '../codeIndexTypes';
import { nameStems, stemTerm } from './identifierWords';

/**
 * What a definition says, for the question's words: its name and doc line, and the words of its body. Shared by the
 * lines a ranked file shows (bestLines.ts) and the ranking itself (termProximity.ts), so both stem a definition's
 * name and doc alike and leave out the same too-long bodies. They differ in the lines they pass: the ranking's start
 * at the signature (its parameter names say what it takes), the best lines' after it, without lines that are a bare
 * name.
 */

/** A class or module this long holds many things: the query's words inside it say little about it. */
const MAX_BODY_LINES = 150;
/**
 * Kinds of definition about one thing even when long: gin's 180-line `getValue` still does one job, and a constant is
 * its value: ripgrep's 370-line `DEFAULT_TYPES` lists the file types and their globs, and "which extensions count as
 * 'rust' or 'py'?" is answered by the words in it (a small model's list for ripgrep's file-types question shows it
 * second instead of not at all; retrieval alone, history 188 → 189 of 280 first). A constant whose value is code
 * counts like a class (CODE_VALUE).
 */
const ONE_JOB: ReadonlySet<SymbolDef['kind']> = new Set(['function', 'method', 'constant']);
/** But a function or constant this long wraps a module (a UMD wrapper, a generated parser): its words are the file's. */
const MAX_FUNCTION_LINES = 500;

/**
 * A constant whose value is code, not data: a module in a function (`var LIB = (function () {`), an object of arrow
 * functions, a Ruby `Struct.new(…) do`. Its body holds many things, like a class's.
 */
const CODE_VALUE = /\bfunction\b|=>|\b(?:Struct|Class|Module)\.new\b|\bdo\s*(?:\|[^|]*\|)?\s*$|\blambda\b/;

/** Whether the words of a definition's body say what it is about: a function or a table up to MAX_FUNCTION_LINES, anything else up to MAX_BODY_LINES. */
export function bodyIsAboutIt(symbol: SymbolDef): boolean {
  const oneJob = ONE_JOB.has(symbol.kind) && !(symbol.kind === 'constant' && CODE_VALUE.test(symbol.signature));
  return symbol.endLine - symbol.line <= (oneJob ? MAX_FUNCTION_LINES : MAX_BODY_LINES);
}

/** A definition's name and doc words, stemmed; once per definition (a re-indexed file's definitions are new objects). */
const wordsOfDefinition = new WeakMap<SymbolDef, ReadonlySet<string>>();

export function definitionWords(symbol: SymbolDef): ReadonlySet<string> {
  let words = wordsOfDefinition.get(symbol);
  if (!words) {
    words = new Set([...nameStems(symbol.name), ...(symbol.doc ? symbol.doc.toLowerCase().split(/\W+/).map(stemTerm) : [])]);
    wordsOfDefinition.set(symbol, words);
  }
  return words;
}

/** A line of a file with the question's stems it holds; lines in file order. */
export interface LineWithTerms {
  line: number;
  terms: readonly string[];
}

/**
 * The question's different stems that the lines of a definition hold, each once, starting at its signature line when
 * `withSignature`, else at the line after it. The lines are in file order, so the first one inside is found by binary
 * search and a file of many definitions stays cheap.
 */
export function bodyTerms(symbol: SymbolDef, lines: readonly LineWithTerms[], withSignature = false): Set<string> {
  const first = withSignature ? symbol.line : symbol.line + 1;
  const held = new Set<string>();
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lines[middle]!.line < first) low = middle + 1;
    else high = middle;
  }
  for (let at = low; at < lines.length && lines[at]!.line <= symbol.endLine; at++) for (const term of lines[at]!.terms) held.add(term);
  return held;
}
