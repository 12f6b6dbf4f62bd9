import type { FileFacts } from '../codeIndexTypes';
import type { QuestionTerms } from './questionTerms';

/**
 * What kind of file a path is, for ranking: "where is X" means the code, so tests, prose and generated code
 * rank below it unless the question asks for them (a Go `_test.go`, a `tests/` folder, `README.md`).
 */

const TEST_PATH = /(^|\/)(tests?|spec|specs|__tests__|testdata|fixtures?)\/|[._-](test|spec)s?\.[a-z]+$|(^|\/)test_[^/]*$|_test\.go$/i;
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

/**
 * And a file that only declares: its top-level definitions are all interfaces (a Java interface or annotation, a
 * TypeScript interface). It says what is to be done, and "where does Gson turn fields into JSON properties, using the
 * names from @SerializedName?" means the code that does it, not the annotation. On bench/eval 0.4–0.6 measured alike
 * (written questions first 38 → 39 of 50, history 184 → 185 of 280, nothing lost) and 0.75 gained nothing.
 */
const DECLARATIONS_FILE_FACTOR = 0.6;

/** What a file's ranking score is multiplied by for its kind: tests, prose, generated files and declarations below code unless the question asks for them. */
export function roleFactor(
  facts: Pick<FileFacts, 'path' | 'generated' | 'symbols'>,
  terms: Pick<QuestionTerms, 'aboutTests' | 'aboutDocs' | 'aboutDeclarations'>,
): number {
  let factor = 1;
  if (!terms.aboutDeclarations && declaresOnly(facts)) factor *= DECLARATIONS_FILE_FACTOR;
  if (!terms.aboutTests && isTestPath(facts.path)) factor *= TEST_FILE_FACTOR;
  if (!terms.aboutDocs && isProsePath(facts.path)) factor *= PROSE_FILE_FACTOR;
  if (facts.generated) factor *= GENERATED_FILE_FACTOR;
  return factor;
}

/** Whether a file has top-level definitions and all of them are interfaces; stops at the first that is not. */
function declaresOnly(facts: Pick<FileFacts, 'symbols'>): boolean {
  let declared = false;
  for (const symbol of facts.symbols) {
    if (symbol.container) continue;
    if (symbol.kind !== 'interface') return false;
    declared = true;
  }
  return declared;
}
