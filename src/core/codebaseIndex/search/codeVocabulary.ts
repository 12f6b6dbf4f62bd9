import { stemTerm } from './identifierWords';

/**
 * Plain words a question uses for an idea that code names with a word of its own: "where are parsed templates
 * *remembered*" asks for a `…Cache`, "where are entities put in *order*" for a `…Sorter`, "where is a value *cut*
 * short" for `truncate`. Each line is the code's words, then the plain words that mean them (stemmed as the index
 * stems, so `remembered` stands for `remember` too). The code's words are searched besides the question's, at
 * RELATED_WEIGHT, never instead of them.
 *
 * A short list on purpose, of words code itself seldom says: a word that code says too is already found as itself,
 * and then its expansion only adds noise. `duplicate`, `hidden`, `digest`, `expires`, `difference` and `dependents`
 * were taken out when they matched commit subjects that meant the code's own `hidden`, `DigestAuth`, `expires`,
 * `differs` and `dependency` (bench/eval: three questions' right files fell out of the top 5 on `duplicate` alone).
 */
const VOCABULARY = `
cache memo: remember remembered remembers
truncate: shorten shortened shortens cut
ellipsis truncate: ellipses
backoff exponential: doubled doubling
retry: reattempt
evict: oldest
lru: recently
bind binder: placeholder placeholders
escape: backslash backslashes
sort sorter: ordered ordering
topological: prerequisites
spoof: forged forge
interval: periodically
concurrent parallel: simultaneously
getenv env: environment
argv args: commandline
glob: wildcard wildcards
shutdown close: shut
init bootstrap: boot booted
`; /**
 * How much a code word weighs when the question says it in plain words: below a word the question itself uses, so
 * a file that has the question's own words still comes first. 0.35, 0.6 and 1 put the same files first on bench/eval.
 */
export const RELATED_WEIGHT = 0.35;

const RELATED: ReadonlyMap<string, readonly string[]> = (() => {
  const related = new Map<string, string[]>();
  for (const line of VOCABULARY.trim().split('\n')) {
    const [code, plain] = line.split(':').map((side) => side.trim().split(/\s+/));
    for (const word of plain!) {
      const stem = stemTerm(word);
      const words = related.get(stem) ?? [];
      for (const codeWord of code!) if (stemTerm(codeWord) !== stem && !words.includes(stemTerm(codeWord))) words.push(stemTerm(codeWord));
      related.set(stem, words);
    }
  }
  return related;
})();

/** The code's stems for a question's stem said in plain words; none for a word code uses itself. */
export function codeStemsFor(stem: string): readonly string[] {
  return RELATED.get(stem) ?? [];
}
