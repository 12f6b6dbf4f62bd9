import { join } from 'node:path';
import { type WalkOptions, type WalkResult, walkWorkspace } from './walkWorkspace';
import type { ResolvedPath, Workspace } from './workspace';

/**
 * Where a file tool's walk starts. In a workspace of several folders, "." (or no path) means all of
 * them, the first folder first, so list_files, search_text and get_file_summaries see the whole
 * workspace; any other path is one folder or file, as in a one-folder workspace.
 */
export async function resolveWalkStarts(workspace: Workspace, userPath: string | undefined): Promise<ResolvedPath[]> {
  const wholeWorkspace = userPath === undefined || ['', '.', './'].includes(userPath.trim());
  if (wholeWorkspace && workspace.roots.length > 1) {
    // Each root still goes through resolve: the same checks as any path (a root is never a secret, but the rule holds for all).
    return Promise.all(workspace.roots.map((root) => workspace.resolve(root)));
  }
  return [await workspace.resolve(userPath ?? '.')];
}

/**
 * Walks each start in turn (each folder with its own .gitignore files) and puts the entries one
 * folder after the other. The workspace's entry cap holds for the whole walk, not per folder.
 */
export async function walkStarts(workspace: Workspace, starts: readonly ResolvedPath[], options: WalkOptions = {}): Promise<WalkResult> {
  const total: WalkResult = { entries: [], truncated: false, unreadableFolders: [] };
  let room = options.maxEntries ?? workspace.limits.maxWalkEntries;
  for (const start of starts) {
    if (room <= 0) {
      total.truncated = true;
      break;
    }
    const walk = await walkWorkspace(workspace, start, { ...options, maxEntries: room });
    total.entries.push(...walk.entries);
    total.truncated ||= walk.truncated;
    total.unreadableFolders.push(
      ...walk.unreadableFolders.map((folder) => workspace.displayPath({ root: start.root, relative: folder, absolute: join(start.root, folder) })),
    );
    room -= walk.entries.length;
  }
  return total;
}
