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
