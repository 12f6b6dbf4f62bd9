import type { FileFacts } from '../codeIndexTypes';
import { isProsePath, isTestPath } from './fileRoles';

/**
 * The file a test file tests, by the naming conventions nearly every language follows: `PropertyValueConverterTests.cs`
 * and `PropertyValueConverter.cs`, `JsonWriterTest.java`, `test_utils.py`, `context_test.go`, `router.spec.ts`,
 * `cookie_spec.rb`. A test's name and method names describe the behaviour a question asks about in plain words
 * (`MaximumStringLengthEffectiveForCapturedString`), so a test file often matches a question better than the code it
 * tests; that code is what the user wants. A file is a test by its folder or name (fileRoles.ts).
 */

/** Test files shared by the tests, not named after a file they test: `test_helper.rb`, `spec_helper.rb`, `BaseTest.java`. */
const SHARED_TEST_FILE = /^(?:tests?|spec)_(?:helpers?|support)$|^(?:Base|Abstract)Tests?$/i;
/** A header or stub beside the source file of the same name: `foo_test.c` tests `foo.c`, which `foo.h` declares. */
const DECLARATION_FILE = /\.(?:h|hh|hpp|hxx|pyi)$/;

/** The stem of the file a test file's name points at (`PropertyValueConverter` for `PropertyValueConverterTests.cs`), or undefined. */
export function testedStem(path: string): string | undefined {
  if (!isTestPath(path)) return undefined;
  const base = baseName(path);
  const stem = base.replace(/^tests?_/, '').replace(/(?:[._-](?:test|spec)s?|Tests?|Spec)$/, '');
  return stem !== base && stem !== '' && !SHARED_TEST_FILE.test(base) ? stem : undefined;
}

/** A file's name without its folder and last extension, as it is spelled (fileAbout.ts's `fileStem` folds case and separators). */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
}

/** The code files, not tests or prose, by their name: which one a test's name points at. Rebuilt only when a file is added or removed. */
export class CodeFilesByName {
  private readonly byName = new Map<string, number[]>();

  constructor(files: Iterable<[string, number]>) {
    for (const [path, id] of files) {
      if (isTestPath(path) || isProsePath(path)) continue;
      const name = baseName(path);
      const ids = this.byName.get(name);
      if (ids) ids.push(id);
      else this.byName.set(name, [id]);
    }
  }

  /**
   * The one file of the test's language its name points at, its source rather than its header; none when no file or
   * several do (`utils.py` in three packages), or when the file was not indexed for its text (too large, binary).
   */
  testedBy(test: Pick<FileFacts, 'path' | 'language'>, facts: (id: number) => FileFacts | undefined): number | undefined {
    const stem = testedStem(test.path);
    if (stem === undefined) return undefined;
    const candidates = (this.byName.get(stem) ?? []).filter((id) => facts(id)?.language === test.language);
    const sources = candidates.length > 1 ? candidates.filter((id) => !DECLARATION_FILE.test(facts(id)!.path)) : candidates;
    return sources.length === 1 && !facts(sources[0]!)!.skipped ? sources[0] : undefined;
  }
}
