import { readdir } from 'node:fs/promises';
import { posix } from 'node:path';
import { isDefaultIgnoredDirectory } from './defaultIgnores';
import type { Workspace } from './workspace';

/**
 * Completions for a `path` form field: the entries of the folder the user is typing in whose
 * names start with what follows the last `/`. Folders end with `/` so picking one continues
 * the completion. Confined like every file tool; secrets and ignored folders never appear. In a
 * workspace of several folders, the other folders are offered at the top level by the names their
 * paths begin with (`lib/`), and their entries are written that way.
 */
export async function suggestPaths(workspace: Workspace, prefix: string, limit = 30): Promise<string[]> {
  const typed = prefix.replace(/\\/g, '/');
  const slash = typed.lastIndexOf('/');
  const folder = slash >= 0 ? typed.slice(0, slash) || '.' : '.';
  const partial = (slash >= 0 ? typed.slice(slash + 1) : typed).toLowerCase();
  let resolved;
  try {
    resolved = await workspace.resolve(folder);
  } catch {
    return [];
  }
  const suggestions: string[] = [];
  if (slash < 0) {
    for (const root of workspace.roots.slice(1)) {
      const name = workspace.displayPath({ root, relative: '.', absolute: root });
      if (!name.startsWith('/') && name.toLowerCase().startsWith(partial)) suggestions.push(`${name}/`);
    }
  }
  const shown = workspace.displayPath(resolved);
  const entries = await readdir(resolved.absolute, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()) || a.name.localeCompare(b.name))) {
    if (suggestions.length >= limit) break;
    if (!entry.name.toLowerCase().startsWith(partial)) continue;
    const relative = resolved.relative === '.' ? entry.name : posix.join(resolved.relative, entry.name);
    if (entry.isDirectory() && (isDefaultIgnoredDirectory(entry.name) || entry.name === '.git')) continue;
    if (workspace.secrets.isDenied(relative, entry.isDirectory())) continue;
    const path = shown === '.' ? entry.name : `${shown}/${entry.name}`;
    suggestions.push(entry.isDirectory() ? `${path}/` : path);
  }
  return suggestions.slice(0, limit);
}
