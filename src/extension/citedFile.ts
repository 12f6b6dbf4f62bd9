import * as vscode from 'vscode';
import { defaultIgnoredDirectoryNames } from '../core/workspace/defaultIgnores';
import { pathEndsWith } from '../core/workspace/pathEnds';
import type { ResolvedPath, Workspace } from '../core/workspace/workspace';
import { WorkspaceAccessError } from '../core/workspace/workspaceErrors';
import { workspacePathOf } from './workspaceFolders';

/** How many files a path's end is looked up in: more than a user would choose among. */
const MAX_CANDIDATES = 50;
/** Glob syntax: a path holding any of these is not searched for (the webview never sends one). */
const GLOB_SYNTAX = /[*?{}[\]!\\]/;
/**
 * Dependencies and build output, which the file tools skip too: `index.ts` is the workspace's, not node_modules'.
 * (An exclude of its own replaces the user's `files.exclude` in the search; secret files are refused afterwards.)
 */
const SKIPPED_FOLDERS = `**/{${defaultIgnoredDirectoryNames().join(',')}}/**`;

/** Asks the user which of several files a link meant; undefined when dismissed. */
export type ChooseFile = (paths: string[], placeHolder: string) => Promise<string | undefined>;
const quickPick: ChooseFile = async (paths, placeHolder) => vscode.window.showQuickPick(paths, { placeHolder });

/**
 * The workspace file an answer's link names: its workspace path, or the end of one (`JsonWriter.java`,
 * `globset/src/lib.rs`), as models often cite files. An end that several files have is offered to choose from;
 * undefined when the user dismisses the choice. Every file found is resolved like any path (inside the folders, real
 * paths, no secret files): one that is refused is never offered, and a search finds nothing a link could not open.
 */
export async function resolveCitedFile(workspace: Workspace, path: string, choose: ChooseFile = quickPick): Promise<ResolvedPath | undefined> {
  try {
    return await workspace.resolve(path);
  } catch (error) {
    if (!(error instanceof WorkspaceAccessError) || error.code !== 'not-found' || GLOB_SYNTAX.test(path)) throw error;
    const end = path.replace(/^\/+/, '');
    const { found, refused, searchFull } = await filesEndingWith(workspace, end);
    if (found.length === 0) throw refused ?? error;
    if (found.length === 1) return found[0]!.resolved;
    const many = searchFull ? `${found.length} or more` : String(found.length);
    const chosen = await choose(
      found.map((file) => file.path),
      `${many} files end with ${end}: open which one?`,
    );
    return found.find((file) => file.path === chosen)?.resolved;
  }
}

/**
 * Workspace files (as the file tools write their paths) whose path ends with `end`, sorted, each resolved; why the
 * first file that could not be was refused (a secret file: the user is told so rather than that nothing is there);
 * and whether the search stopped at its cap (there may be more).
 */
async function filesEndingWith(
  workspace: Workspace,
  end: string,
): Promise<{ found: Array<{ path: string; resolved: ResolvedPath }>; refused?: Error; searchFull: boolean }> {
  const uris = await vscode.workspace.findFiles(`**/${end}`, SKIPPED_FOLDERS, MAX_CANDIDATES);
  const paths = [...new Set(uris.map(workspacePathOf))].filter((path): path is string => path !== undefined && pathEndsWith(path, end)).sort();
  const found: Array<{ path: string; resolved: ResolvedPath }> = [];
  let refused: Error | undefined;
  for (const path of paths) {
    try {
      found.push({ path, resolved: await workspace.resolve(path) });
    } catch (error) {
      refused ??= error as Error;
    }
  }
  return { found, refused, searchFull: uris.length >= MAX_CANDIDATES };
}
