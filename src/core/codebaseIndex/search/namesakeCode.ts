import type { FileFacts } from '../codeIndexTypes';
import { isProsePath, isTestPath } from './fileRoles';

/**
 * The code file a test file or a documentation page is named after. A test's name and method names describe the
 * behaviour a question asks about in plain words (`MaximumStringLengthEffectiveForCapturedString`), and so does a
 * page of the API docs (libuv's `docs/src/timer.rst` on `src/timer.c`), so either often matches a question better
 * than the code it is about; that code is what the user wants. Tests follow the naming conventions nearly every
 * language does: `PropertyValueConverterTests.cs` and `PropertyValueConverter.cs`, `JsonWriterTest.java`,
 * `test_utils.py`, `context_test.go`, `router.spec.ts`, `cookie_spec.rb`. A page is named as the file it documents.
 * A file is a test or prose by its folder or name (fileRoles.ts).
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

/** Pages about the project, not about one file of it, whatever file happens to share their name (`index.md`, `index.ts`). */
const PROJECT_PAGE =
  /^(?:index|docs?|readme|changelog|changes|history|contributing|licen[cs]e|authors|notes|todo|faq|guide|intro(?:duction)?|overview|api|design|usage|install(?:ation)?|upgrading|migration|security|code_of_conduct|support|releas(?:e|ing)|main)$/i;

/** The stem of the file a documentation page's name points at (`timer` for `docs/src/timer.rst`), or undefined. */
export function documentedStem(path: string): string | undefined {
  if (!isProsePath(path)) return undefined;
  const base = baseName(path);
  return PROJECT_PAGE.test(base) ? undefined : base;
}

/** A file's name without its folder and last extension, as it is spelled (fileAbout.ts's `fileStem` folds case and separators). */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
}

/** The code files, not tests or prose, by their name: which one a test's or a page's name points at. Rebuilt only when a file is added or removed. */
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
   * The one file a test's or a page's name points at (of the test's own language), its source rather than its header;
   * none when no file or several do (`utils.py` in three packages), or when the file was not indexed for its text
   * (too large, binary).
   */
  namesakeOf(file: Pick<FileFacts, 'path' | 'language'>, facts: (id: number) => FileFacts | undefined): number | undefined {
    const page = documentedStem(file.path);
    const stem = page ?? testedStem(file.path);
    if (stem === undefined) return undefined;
    // A page is in a markup language of its own; a test is in the language of the code it tests.
    const candidates = (this.byName.get(stem) ?? []).filter((id) => page !== undefined || facts(id)?.language === file.language);
    const sources = candidates.length > 1 ? candidates.filter((id) => !DECLARATION_FILE.test(facts(id)!.path)) : candidates;
    return sources.length === 1 && !facts(sources[0]!)!.skipped ? sources[0] : undefined;
  }
}
