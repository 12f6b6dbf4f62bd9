import type { WalkEntry } from '../../workspace/walkWorkspace';
import type { ResolvedPath, Workspace } from '../../workspace/workspace';
import type { PathMatcher } from './globMatcher';

/** An entry's path relative to the folder a tool was pointed at (its name when that was a file). */
function relativeToStart(start: ResolvedPath, entry: WalkEntry): string {
  if (entry.depth === 0) return entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
  return start.relative === '.' ? entry.relative : entry.relative.slice(start.relative.length + 1);
}

/**
 * The files of a walk, optionally narrowed by a glob. With several starts (every folder of a multi-root
 * workspace), each entry is matched from its own folder, and "from the workspace root" means the path as
 * tools show it (`lib/src/a.ts` for the folder `lib`), so a glob can name one folder.
 */
export function entriesUnder(workspace: Workspace, starts: readonly ResolvedPath[], entries: readonly WalkEntry[], matcher?: PathMatcher): WalkEntry[] {
  const startOf = (entry: WalkEntry) => starts.find((start) => start.root === entry.root) ?? (starts[0] as ResolvedPath);
  return entries.filter((entry) => {
    if (entry.type !== 'file') return false;
    if (!matcher) return true;
    const fromStart = relativeToStart(startOf(entry), entry);
    return matcher(fromStart, entry.relative) || (entry.root !== workspace.root && matcher(fromStart, workspace.displayPath(entry)));
  });
}
