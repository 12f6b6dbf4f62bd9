import { stemmer } from 'stemmer';

/**
 * Words from code and questions, made comparable: identifiers split at camelCase, snake_case,
 * kebab-case and digits (`getFileSummaries` → get, file, summaries), lower-cased, and reduced to their
 * Porter stem (`computed`, `computation` and `compute` all become `comput`), so "where is the word
 * frequency computed?" meets `computeWordFrequencies`.
 */

const WORD = /[A-Za-z0-9_$]+/g;

/** `HTTPServerError2` → http, server, error, 2; `parse_yaml-file` → parse, yaml, file. */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[\s_$\-.]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase());
}

/**
 * The terms of a text for the full-text index: each identifier whole (lower-cased) and its parts, so
 * both `wordfrequency` and `word frequency` match. Terms are not stemmed here; the text index stems them (textIndex.ts).
 */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0];
    const parts = splitIdentifier(word);
    const whole = word.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
    if (parts.length !== 1 || parts[0] !== whole) terms.push(whole);
    terms.push(...parts);
  }
  return terms;
}

/** English words that carry no meaning in a search, and the words a where-is question is made of. */
export const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from has have how i if in into is it its me my of on or our ' +
    'should so than that the their them then there these this those to was we were what when where which who why will with ' +
    'would you your about after all also any before each find here just more most not now only other out over same show some ' +
    'such tell up us very'
  ).split(' '),
);

/**
 * Words that say what kind of thing is asked for ("which *file* *defines* the *function* …"): they match
 * half of every codebase, so they count for little, but they are not dropped, since `file` or `class`
 * can also be what the user means.
 */
export const QUESTION_WORDS = new Set(
  (
    'file files function functions method methods class classes code defined define defines definition implemented implement ' +
    'implements implementation located locate live lives declared declare module modules name named called variable type types ' +
    'happen happens handled handle handles done work works used use uses'
  ).split(' '),
);

const stems = new Map<string, string>();

/** Porter stem, memoised: a build stems the same few thousand words millions of times. */
export function stemTerm(term: string): string {
  let stem = stems.get(term);
  if (stem === undefined) {
    stem = term.length <= 3 || /\d/.test(term) ? term : stemmer(term);
    if (stems.size < 200_000) stems.set(term, stem);
  }
  return stem;
}

const nameStemCache = new Map<string, string[]>();

/** A definition's name as distinct stems, stop words out (`get_file_summaries` → get, file, summari): cached, names repeat. */
export function nameStems(name: string): string[] {
  let stems = nameStemCache.get(name);
  if (!stems) {
    stems = [
      ...new Set(
        splitIdentifier(name)
          .filter((part) => part.length > 1 && !STOP_WORDS.has(part))
          .map(stemTerm),
      ),
    ];
    if (nameStemCache.size < 200_000) nameStemCache.set(name, stems);
  }
  return stems;
}

const wordStemCache = new Map<string, string[]>();
const WORD_STEM_CACHE_SIZE = 50_000;

/**
 * Every stem of a word of code, as the text index has them: the whole word's and its parts' (`recoverPanics` →
 * recoverpan, recov, panic), for matching a query's stems. Cached, since code repeats its words; emptied when full,
 * so a file of one-off names cannot keep the rest out.
 */
export function wordStems(word: string): string[] {
  let stems = wordStemCache.get(word);
  if (!stems) {
    stems = indexTerms(word).map(stemTerm);
    if (wordStemCache.size >= WORD_STEM_CACHE_SIZE) wordStemCache.clear();
    wordStemCache.set(word, stems);
  }
  return stems;
}

/** The stems of a question's words and names, stop words and question words ("where", "file", "defined") out. */
export function contentStems(text: string): string[] {
  const questionStems = new Set([...QUESTION_WORDS].map(stemTerm));
  return [
    ...new Set(
      indexTerms(text)
        .filter((term) => term !== '' && !STOP_WORDS.has(term)) // a lone `$` or `_` leaves an empty term
        .map(stemTerm),
    ),
  ].filter((stem) => !questionStems.has(stem));
}
