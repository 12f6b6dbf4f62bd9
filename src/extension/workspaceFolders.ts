import { isAbsolute, relative, resolve, sep } from 'node:path';
import * as vscode from 'vscode';
import { folderDisplayPath, folderPrefixes, type WorkspaceFolderSpec } from '../core/workspace/workspaceFolders';

/**
 * The folders of the window as the engine sees them, and paths written the engine's way: bare in
 * the first folder, `<folder name>/…` in the others (VS Code's own `asRelativePath(uri, true)`), so
 * what the editor attaches or picks resolves into the folder it came from, never silently the first.
 */

/** The open folders on disk (a virtual folder has no path the file tools could read), in VS Code's order. */
export function diskFolders(): vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
}

/** What `createCodewikiEngine` and the index's worker open: every folder with the name VS Code shows for it. */
export function folderSpecs(): WorkspaceFolderSpec[] {
  return diskFolders().map((folder) => ({ path: folder.uri.fsPath, name: folder.name }));
}

/** A file or folder inside an open folder, as the engine writes its path; undefined outside them. */
export function workspacePathOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== 'file') return undefined;
  const folders = diskFolders();
  // The first folder that contains it, as the engine's Workspace picks one for an absolute path.
  const index = folders.findIndex((folder) => isInside(folder.uri.fsPath, uri.fsPath));
  if (index < 0) return undefined;
  const rel = relative(folders[index]!.uri.fsPath, uri.fsPath).split(sep).join('/') || '.';
  return folderDisplayPath(folderPrefixes(folders.map((folder) => folder.name)), index, rel, uri.fsPath);
}

/** The active editor's folder, else the first: where Save to file and Browse… start. */
export function activeFolder(): vscode.WorkspaceFolder | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const own = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  return own?.uri.scheme === 'file' ? own : diskFolders()[0];
}

/**
 * `codewiki.promptFolders` for the engine. The setting is resource-scoped: the window's value (user or
 * `.code-workspace` settings) is passed as written, and the engine looks for it in every folder; a
 * folder's own value (its `.vscode/settings.json`) is relative to that folder, so it is made absolute here.
 */
export function promptFolderSettings(): string[] {
  const entries = new Set(stringList(vscode.workspace.getConfiguration('codewiki').get('promptFolders')));
  for (const folder of diskFolders()) {
    const own = vscode.workspace.getConfiguration('codewiki', folder.uri).inspect<unknown>('promptFolders')?.workspaceFolderValue;
    for (const entry of stringList(own)) entries.add(resolve(folder.uri.fsPath, entry));
  }
  return [...entries];
}

/**
 * Every folder `codewiki.promptFolders` can mean, absolute: each entry in each folder of the window (and
 * `lib/…` in the folder named lib), as the engine looks for them. Files under one are action prompts to
 * the editor (completion, CodeLens, problems as you type) exactly as under `.codewiki/prompts`.
 */
export function promptFolderDirs(): string[] {
  const folders = diskFolders();
  const prefixes = folderPrefixes(folders.map((folder) => folder.name));
  const dirs = new Set<string>();
  for (const entry of promptFolderSettings()) {
    if (isAbsolute(entry)) {
      dirs.add(resolve(entry));
      continue;
    }
    for (const folder of folders) dirs.add(resolve(folder.uri.fsPath, entry));
    const [first, ...rest] = entry.split(/[\\/]/);
    const named = first ? prefixes.indexOf(first, 1) : -1;
    if (named > 0 && rest.length) dirs.add(resolve(folders[named]!.uri.fsPath, ...rest));
  }
  return [...dirs];
}

export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim()) : [];
}
