import { strict as assert } from 'node:assert';
import { isTestPath } from '../../src/core/codebaseIndex/search/fileRoles';

/** "Where is X" means the code: tests rank below it, and are listed only when the question asks for them. */
describe('the index tells tests from the code they test by their paths', () => {
  it("a test folder, a test file, and a test project of its own (gson's test-shrinker, integration-tests, e2etest)", () => {
    for (const path of [
      'tests/test_utils.py',
      'src/router/routeTree.test.ts',
      'gin/context_test.go',
      'gson/src/test/java/com/google/gson/JsonWriterTest.java',
      'test-shrinker/src/main/java/com/example/Main.java',
      'test-jpms/src/main/java/module-info.java',
      'integration-tests/src/app.ts',
      'internal/command/e2etest/init_test_helpers.go',
    ])
      assert.equal(isTestPath(path), true, path);
  });

  it('code whose name only contains the word is code (a test runner package, a file named like a folder, a contest)', () => {
    for (const path of [
      'packages/playwright-test/src/index.ts',
      'packages/test-runner/src/index.ts',
      'packages/test-utils.ts',
      'src/latest.ts',
      'src/contest/score.ts',
      'src/testing.go',
    ])
      assert.equal(isTestPath(path), false, path);
  });
});
