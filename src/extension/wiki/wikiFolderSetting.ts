import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { wikiFolder } from '../../core/wiki/wikiLocation';
import { diskFolders } from '../workspaceFolders';

export interface WikiFolderChoice {
  /** The wiki folder, absolute; the default one when the setting is refused. */
  dir: string;
  /** Why `codewiki.wiki.folder` was refused (it points outside the workspace). */
  problem?: string;
}

/**
 * `codewiki.wiki.folder` of the first folder (a repository may set it, so it must stay inside that
 * folder: see wikiLocation.ts). Resolved against the folder's real path, as the engine's workspace
 * root is, so the pages' relative links to the code come out right through a symlinked folder.
 */
export async function configuredWikiFolder(): Promise<WikiFolderChoice | undefined> {
  const folder = diskFolders()[0];
  if (!folder) return undefined;
  const root = await realpath(folder.uri.fsPath).catch(() => folder.uri.fsPath);
  const setting = vscode.workspace.getConfiguration('codewiki', folder.uri).get<string>('wiki.folder');
  try {
    return { dir: wikiFolder(root, setting) };
  } catch (error) {
    return { dir: wikiFolder(root), problem: (error as Error).message };
  }
}
