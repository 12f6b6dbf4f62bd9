import type { FileFacts } from '../codeIndexTypes';
import type { QuestionTerms } from './questionTerms';

/**
 * What kind of file a path is, for ranking: "where is X" means the code, so tests, prose and generated code
 * rank below it unless the question asks for them (a Go `_test.go`, a `tests/` folder, `README.md`).
 */

/**
 * Test folders and files, and test projects of their own (`test-shrinker/` at the top, `integration-tests/`,
 * `e2etest/`): gson's test-shrinker held 4 of the 6 best matches for "Where does Gson create an instance of a class
 * that has no no-args constructor?" (its classes are named `ClassWithNoArgsConstructor`). A package named `test-*`
 * below the top or `*-test` (`packages/test-runner/`, a test runner's own code) is code.
 */
const TEST_PATH =
  /(^|\/)(tests?|spec|specs|__tests__|testdata|fixtures?|[^/]+-tests|e2etests?)\/|^tests?-[^/]+\/|[._-](test|spec)s?\.[a-z]+$|(^|\/)test_[^/]*$|_test\.go$/i;
const PROSE_PATH = /\.(md|mdx|markdown|rst|txt|adoc)$/i;

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

export function isProsePath(path: string): boolean {
  return PROSE_PATH.test(path);
}

/** "Where is X" means the code, not its tests, unless the question says tests. */
const TEST_FILE_FACTOR = 0.5;
/** Likewise prose: "where is X" is answered by code; a guide that explains X ranks below it unless the question asks for docs. */
const PROSE_FILE_FACTOR = 0.6;
/** And generated code (protobuf stubs, bindings): the hand-written code they come from is what a user means. */
const GENERATED_FILE_FACTOR = 0.5;

/** What a file's ranking score is multiplied by for its kind: tests, prose and generated files below code unless the question asks for them. */
export function roleFactor(facts: Pick<FileFacts, 'path' | 'generated'>, terms: Pick<QuestionTerms, 'aboutTests' | 'aboutDocs'>): number {
  let factor = 1;
  if (!terms.aboutTests && isTestPath(facts.path)) factor *= TEST_FILE_FACTOR;
  if (!terms.aboutDocs && isProsePath(facts.path)) factor *= PROSE_FILE_FACTOR;
  if (facts.generated) factor *= GENERATED_FILE_FACTOR;
  return factor;
}
