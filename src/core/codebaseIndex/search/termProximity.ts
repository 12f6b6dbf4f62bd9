import { wordStems } from './identifierWords';

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
 * The lines of `text` that hold any of the `wanted` stems, each with the stems it holds. A stem is (nearly always)
 * the start of the words it stands for: one pass of one regular expression over the text finds the few lines worth
 * splitting and stemming, instead of stemming every word of the file.
 */
export function linesWithTerms(text: string, wanted: ReadonlySet<string>, maxLines = MAX_MATCHED_LINES): LineTerms[] {
  // An empty stem (a lone `$` in a question) would match everywhere, and nowhere past its own position.
  const stems = [...wanted].filter(Boolean);
  if (stems.length === 0) return [];
  const mayMatch = new RegExp(stems.map((stem) => stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  const found: LineTerms[] = [];
  let line = 1;
  let counted = 0;
  for (let match = mayMatch.exec(text); match; match = mayMatch.exec(text)) {
    for (let at = text.indexOf('\n', counted); at !== -1 && at < match.index; at = text.indexOf('\n', at + 1)) {
      line++;
      counted = at + 1;
    }
    const end = text.indexOf('\n', match.index);
    const raw = text.slice(counted, end === -1 ? text.length : end);
    const terms = new Set<string>();
    // wordStems remembers each word's stems across searches: code repeats its words, and splitting and stemming
    // them is most of the cost of reading a file's lines.
    for (const word of raw.match(/[A-Za-z0-9_$]+/g) ?? []) for (const stem of wordStems(word)) if (stem && wanted.has(stem)) terms.add(stem);
    if (terms.size > 0) found.push({ line, text: raw, terms: [...terms] });
    if (found.length >= maxLines || end === -1) break;
    mayMatch.lastIndex = Math.max(end, match.index + 1); // the rest of this line is read already
  }
  return found;
}

/**
 * How closely a file's text gathers the query's words: the best sum of the (idf-weighted) different query words,
 * two at least, found within a few neighbouring lines. "Recovery returns a middleware that recovers from any panics and writes a
 * 500" says in one line what a router file says across three hundred ("middleware" at the top, a `panic(…)` call
 * far below), and whole-file BM25 cannot tell the two apart. The classical term-proximity signal of text retrieval.
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
