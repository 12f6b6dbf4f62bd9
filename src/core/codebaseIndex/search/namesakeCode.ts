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

/**
 * Pages about the project or a task, not about one file of it, whatever file happens to share their name (`index.md`
 * and `index.ts`, `setup.md` and `setup.py`, `ci.md` and `ci.yml`, Go's `doc.go`).
 */
const PROJECT_PAGE = new RegExp(
  '^_?(?:' +
    [
      'index|docs?|readme|summary|sidebar|changelog|changes|history|contributing|licen[cs]e|authors|notes|todo|faq',
      'guide|intro(?:duction)?|overview|api|reference|glossary|design|architecture|roadmap|usage|tutorial|examples?',
      'getting[-_]started|quickstart|install(?:ation)?|setup|build|ci|deploy(?:ment)?|development|production',
      'config(?:uration)?|requirements|version|upgrading|migration|security|code_of_conduct|support|releas(?:e|ing)|robots|main',
    ].join('|') +
    ')$',
  'i',
);

/**
 * The stem of the file a documentation page's name points at (`timer` for `docs/src/timer.rst`), or undefined. Prose
 * in a test folder is a fixture, data for a test, and documents nothing.
 */
export function documentedStem(path: string): string | undefined {
  if (!isProsePath(path) || isTestPath(path)) return undefined;
  const base = baseName(path);
  return PROJECT_PAGE.test(base) ? undefined : base;
}

/** Languages of data, configuration and markup: what a page documents is code, never these (`timer.json`, `ci.yml`). */
const NOT_CODE = new Set([
  'text',
  'json',
  'jsonc',
  'yaml',
  'toml',
  'ini',
  'xml',
  'html',
  'css',
  'scss',
  'less',
  'ignore',
  'dockerfile',
  'makefile',
  'cmake',
  'sql',
  'graphql',
  'protobuf',
]);

/** A file's name without its folder and last extension, as it is spelled (fileAbout.ts's `fileStem` folds case and separators). */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
}

/** The code files, not tests or prose, by their name: which one a test's or a page's name points at. Rebuilt only when a file is added or removed. */
export class CodeFilesByName {
  private readonly byName = new Map<string, number[]>();
  /** The same by the name in lower case: a page's name is often spelled as a heading (`router.md` on `Router.ts`). */
  private readonly byFoldedName = new Map<string, number[]>();

  constructor(files: Iterable<[string, number]>) {
    for (const [path, id] of files) {
      if (isTestPath(path) || isProsePath(path)) continue;
      const name = baseName(path);
      append(this.byName, name, id);
      append(this.byFoldedName, name.toLowerCase(), id);
    }
  }

  /**
   * The one file a test's or a page's name points at, its source rather than its header; none when no file or several
   * do (`utils.py` in three packages), or when the file was not indexed for its text (too large, binary). A test's
   * namesake is in the test's language; a page's (in a markup language of its own) in any language of code.
   */
  namesakeOf(file: Pick<FileFacts, 'path' | 'language'>, facts: (id: number) => FileFacts | undefined): number | undefined {
    const page = documentedStem(file.path);
    const stem = page ?? (isProsePath(file.path) ? undefined : testedStem(file.path));
    if (stem === undefined) return undefined;
    const named = page !== undefined ? this.byFoldedName.get(page.toLowerCase()) : this.byName.get(stem);
    const candidates: Array<{ id: number; facts: FileFacts }> = [];
    for (const id of named ?? []) {
      const found = facts(id);
      if (found && (page !== undefined ? !NOT_CODE.has(found.language) : found.language === file.language)) candidates.push({ id, facts: found });
    }
    const sources = candidates.length > 1 ? candidates.filter((candidate) => !DECLARATION_FILE.test(candidate.facts.path)) : candidates;
    return sources.length === 1 && !sources[0]!.facts.skipped ? sources[0]!.id : undefined;
  }
}

function append(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids) ids.push(id);
  else map.set(key, [id]);
}
