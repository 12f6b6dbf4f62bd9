import type { StructureFile } from '../../codebaseIndex/codeIndexTypes';
import { isProsePath, isTestPath } from '../../codebaseIndex/search/fileRoles';

/** Kinds that are not code: Markdown headings and stylesheet selectors make a file a document, not a module's part. */
const NOT_CODE = new Set(['section', 'selector']);

/**
 * The files a wiki describes: hand-written code with at least one definition. Tests, docs, generated and
 * skipped files are left out, so a module's page is about what the module does, not how it is checked.
 */
export function isWikiCodeFile(file: StructureFile): boolean {
  if (file.skipped || file.generated || isTestPath(file.path) || isProsePath(file.path)) return false;
  return file.symbols.some((symbol) => !NOT_CODE.has(symbol.kind));
}
