import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The rules of one .gitignore file and the folder (posix, root-relative; '' for the root) they belong to. */
export interface IgnoreLayer {
  base: string;
  rules: Ignore;
}

/** Layers from the outermost folder to the innermost; deeper files override shallower ones, as in git. */
export type IgnoreChain = readonly IgnoreLayer[];

/** Reads `<dir>/.gitignore`; a folder without one (or an unreadable one) adds no layer. */
export async function loadGitignoreLayer(directory: string, base: string, readText: (path: string) => Promise<string>): Promise<IgnoreLayer | undefined> {
  let text: string;
  try {
    text = await readText(join(directory, '.gitignore'));
  } catch {
    return undefined;
  }
  return { base, rules: ignore().add(text) };
}

/**
 * Git semantics across nested .gitignore files: the innermost file that has an opinion wins, so
 * `!keep.log` in `sub/.gitignore` re-includes a file that the root's `*.log` excluded.
 * Ignored folders are pruned by the walker, so their contents never get here.
 */
export function isIgnoredByChain(chain: IgnoreChain, relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const layer of chain) {
    const local = layer.base === '' ? relativePath : relativePath.slice(layer.base.length + 1);
    if (local === '') continue;
    const result = layer.rules.test(isDirectory ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}
