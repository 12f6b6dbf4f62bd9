import type { FileFacts } from '../codeIndexTypes';
import { isProsePath, isTestPath } from './fileRoles';

/**
 * The code file a test file, a documentation page or a C or C++ header is named after. A test's name and method names
 * describe the behaviour a question asks about in plain words (`MaximumStringLengthEffectiveForCapturedString`), and
 * so does a page of the API docs (libuv's `docs/src/timer.rst` on `src/timer.c`) and a header's doc comments (C
 * documents a function where it declares it: libuv's `src/idna.h` on `src/idna.c`), so any of them often matches a
 * question better than the code it is about; that code is what the user wants. Tests follow the naming conventions
 * nearly every language does: `PropertyValueConverterTests.cs` and `PropertyValueConverter.cs`, `JsonWriterTest.java`,
 * `test_utils.py`, `context_test.go`, `router.spec.ts`, `cookie_spec.rb`. A page is named as the file it documents, a
 * header as its source. A file is a test or prose by its folder or name (fileRoles.ts).
 */

/** How a file points at the code it is named after: it tests it, documents it, or declares what it defines. */
export type NamesakeRole = 'tests' | 'documents' | 'declares';

/** The code file a file is named after, and how it points at it. */
export interface Namesake {
  id: number;
  role: NamesakeRole;
}

/** Test files shared by the tests, not named after a file they test: `test_helper.rb`, `spec_helper.rb`, `BaseTest.java`. */
const SHARED_TEST_FILE = /^(?:tests?|spec)_(?:helpers?|support)$|^(?:Base|Abstract)Tests?$/i;
/** A C or C++ header: its source is the file of the same name in C or C++ (`src/idna.h`, `src/idna.c`). */
const C_HEADER = /\.(?:h|hh|hpp|hxx)$/i;
/** A header or a Python stub beside the source file of the same name: `foo_test.c` tests `foo.c`, which `foo.h` declares. */
function isDeclarationFile(path: string): boolean {
  return C_HEADER.test(path) || /\.pyi$/i.test(path);
}

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

const C_FAMILY = new Set(['c', 'cpp']);

/** What a file's name points at, and how: the stem of the code it tests, documents or declares; undefined for code itself. */
export function namesakeStem(path: string): { role: NamesakeRole; stem: string } | undefined {
  const page = documentedStem(path);
  if (page !== undefined) return { role: 'documents', stem: page };
  if (isProsePath(path)) return undefined;
  const tested = testedStem(path);
  if (tested !== undefined) return { role: 'tests', stem: tested };
  return C_HEADER.test(path) && !isTestPath(path) ? { role: 'declares', stem: baseName(path) } : undefined;
}

/**
 * Each file's namesakeStem, per version of its facts: a ranking asks it of every candidate twice, a dozen regular
 * expressions each time. It depends on the path alone, and a file's facts are replaced, never edited, when it changes.
 */
const stemOfFile = new WeakMap<object, ReturnType<typeof namesakeStem>>();

function namesakeStemOf(file: Pick<FileFacts, 'path'>): ReturnType<typeof namesakeStem> {
  if (!stemOfFile.has(file)) stemOfFile.set(file, namesakeStem(file.path));
  return stemOfFile.get(file);
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

/** The code files, not tests or prose, by their name: which one a test's, a page's or a header's name points at. Rebuilt only when a file is added or removed. */
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
   * The one file a test's, a page's or a header's name points at, its source rather than its header; none when no
   * file or several do (`utils.py` in three packages, `utils.c` in two folders), or when the file was not indexed for
   * its text (too large, binary). A test's namesake is in the test's language; a page's (in a
   * markup language of its own) in any language of code; a header's in C or C++, and never a header itself.
   */
  namesakeOf(file: Pick<FileFacts, 'path' | 'language'>, facts: (id: number) => FileFacts | undefined): Namesake | undefined {
    const named = namesakeStemOf(file);
    if (named === undefined) return undefined;
    const { role, stem } = named;
    const ids = role === 'documents' ? this.byFoldedName.get(stem.toLowerCase()) : this.byName.get(stem);
    const candidates: Array<{ id: number; facts: FileFacts }> = [];
    for (const id of ids ?? []) {
      const found = facts(id);
      if (found && inNamesakesLanguage(role, file, found)) candidates.push({ id, facts: found });
    }
    // A test's or page's namesake may be a header when no source shares its name (a header's never is: see above).
    const sources = candidates.length > 1 ? candidates.filter((candidate) => !isDeclarationFile(candidate.facts.path)) : candidates;
    return sources.length === 1 && !sources[0]!.facts.skipped ? { id: sources[0]!.id, role } : undefined;
  }
}

/**
 * Whether a file of that name can be what the lender is named after: a test's code is in the test's language; a
 * page's (in a markup language of its own) in any language of code; a header's in C or C++, and never a header (not
 * even the header itself, which has the same name).
 */
function inNamesakesLanguage(role: NamesakeRole, lender: Pick<FileFacts, 'language'>, found: FileFacts): boolean {
  if (role === 'documents') return !NOT_CODE.has(found.language);
  if (role === 'tests') return found.language === lender.language;
  return C_FAMILY.has(found.language) && !C_HEADER.test(found.path);
}

function append(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids) ids.push(id);
  else map.set(key, [id]);
}
