import type { FileFacts } from '../codeIndexTypes';
import { isTestPath } from './fileRoles';

/**
 * The file a test file tests, by the naming conventions nearly every language follows: `PropertyValueConverterTests.cs`
 * and `PropertyValueConverter.cs`, `JsonWriterTest.java`, `test_utils.py`, `context_test.go`, `router.spec.ts`,
 * `cookie_spec.rb`. A test's name and method names describe the behaviour a question asks about in plain words
 * (`MaximumStringLengthEffectiveForCapturedString`), so a test file often matches a question better than the code it
 * tests; that code is what the user wants.
 */

/** The stem of the file a test file's name points at (`PropertyValueConverter` for `PropertyValueConverterTests.cs`), or undefined. */
export function testedStem(path: string): string | undefined {
  if (!isTestPath(path)) return undefined;
  const base = fileStem(path);
  const stem = base.replace(/^tests?_/, '').replace(/(?:[._-](?:test|spec)s?|Tests?|Spec)$/, '');
  return stem !== base && stem !== '' ? stem : undefined;
}

/** A file's name without its folder and last extension. */
export function fileStem(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
}

/** The files that are not tests, by their stem: which one a test's name points at. Rebuilt only when a file is added or removed. */
export class CodeFilesByStem {
  private readonly byStem = new Map<string, number[]>();

  constructor(files: Iterable<[string, number]>) {
    for (const [path, id] of files) {
      if (isTestPath(path)) continue;
      const stem = fileStem(path);
      const ids = this.byStem.get(stem);
      if (ids) ids.push(id);
      else this.byStem.set(stem, [id]);
    }
  }

  /** The one file of the test's language its name points at; none when no file or several do (`utils.py` in three packages). */
  testedBy(test: Pick<FileFacts, 'path' | 'language'>, facts: (id: number) => FileFacts | undefined): number | undefined {
    const stem = testedStem(test.path);
    const ids = stem === undefined ? undefined : this.byStem.get(stem)?.filter((id) => facts(id)?.language === test.language);
    return ids?.length === 1 ? ids[0] : undefined;
  }
}
