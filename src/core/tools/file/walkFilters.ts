import type { WalkEntry } from '../../workspace/walkWorkspace';
import type { ResolvedPath } from '../../workspace/workspace';
import type { PathMatcher } from './globMatcher';

/** An entry's path relative to the folder a tool was pointed at (its name when that was a file). */
function relativeToStart(start: ResolvedPath, entry: WalkEntry): string {
  if (entry.depth === 0) return entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
  return start.relative === '.' ? entry.relative : entry.relative.slice(start.relative.length + 1);
}

/** The files of a walk, optionally narrowed by a glob. */
export function entriesUnder(start: ResolvedPath, entries: readonly WalkEntry[], matcher?: PathMatcher): WalkEntry[] {
  return entries.filter(
    (entry) => entry.type === 'file' && (!matcher || matcher(relativeToStart(start, entry), entry.relative)),
  );
}
