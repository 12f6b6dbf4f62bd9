import { stemTerm } from './identifierWords';

/**
 * Plain words a question uses for an idea that code names with a word of its own: "where are parsed templates
 * *remembered*" asks for a `…Cache`, "where are entities put in *order*" for a `…Sorter`, "where is a value *cut*
 * short" for `truncate`. Each line is the code's words, then the plain words that mean them, each form written out:
 * a plain word is matched as written (lower-cased), not by its stem, since stems join forms code does use ("doubled"
 * and the type `double`, "recently" and `recent`). The code's words are searched besides the question's, at
 * RELATED_WEIGHT, never instead of them.
 *
 * A short list on purpose, of words code itself seldom says: a word that code says too is already found as itself,
 * and then its expansion only adds noise. Two are kept though code says them, for what they mean in a question:
 * "order" (`orderBy`), since to put things in order is to sort them, and "environment" (`environment` settings),
 * since an environment variable is read with `getenv` or `env`. `duplicate`, `hidden`, `digest`, `expires`,
 * `difference` and `dependents` were taken out when they matched commit subjects that meant the code's own `hidden`,
 * `DigestAuth`, `expires`, `differs` and `dependency` (bench/eval: three questions' right files fell out of the top 5
 * on `duplicate` alone).
 */
const VOCABULARY = `
cache memo: remember remembered remembers remembering
truncate: shorten shortened shortens shortening cut cuts cutting ellipsis ellipses
ellipsis: ellipses
backoff exponential: doubled doubling
retry: reattempt reattempts reattempted reattempting
evict: oldest
lru: recently
bind binder: placeholder placeholders
escape: backslash backslashes
sort sorter: order ordered ordering
topological: prerequisite prerequisites
spoof: forged forge forges forging
interval: periodically
concurrent parallel: simultaneous simultaneously
getenv env: environment
glob: wildcard wildcards
shutdown close: shut shuts shutting
init bootstrap: boot boots booted booting
`;

/**
 * How much a code word weighs when the question says it in plain words: a little under a word the question itself
 * uses, so a file that says the question's word still leads, but enough that a file with the code's word is found as
 * if it said it: the plain words of the table seldom stand in code at all. Measured (bench/eval, retrieval alone, 540
 * questions): at 0.35, 0.6, 0.9 and 1 the questions from history and those of the two repositories that joined blind
 * rank the same; only three written questions move, from fifth or unlisted at 0.35 to first (typeorm's entity order),
 * second (serilog's template cache) and third (its argument binding) at 0.9.
 */
export const RELATED_WEIGHT = 0.9;

/** Each plain word's code stems, from VOCABULARY's lines. */
const CODE_STEMS: ReadonlyMap<string, readonly string[]> = (() => {
  const codeStems = new Map<string, string[]>();
  for (const line of VOCABULARY.trim().split('\n')) {
    const [code = '', plain = ''] = line.split(':');
    const stems = code.trim().split(/\s+/).map(stemTerm);
    for (const word of plain.trim().split(/\s+/)) {
      const known = codeStems.get(word) ?? [];
      codeStems.set(word, [...known, ...stems.filter((stem) => !known.includes(stem))]);
    }
  }
  return codeStems;
})();

/** The code's stems for a plain word of a question, as written and lower-cased; none for any other word. */
export function codeStemsFor(word: string): readonly string[] {
  return CODE_STEMS.get(word) ?? [];
}
