import type { Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { abortReason as abortError, throwIfAborted } from '../util/abort';
import type { AdaptiveFs } from './adaptiveFs';
import { isDefaultIgnoredDirectory, isDefaultIgnoredFile } from './defaultIgnores';
import { type IgnoreChain, isIgnoredByChain, loadGitignoreLayer } from './gitignoreRules';
import { comparePaths } from './pathOrder';
import type { ResolvedPath, Workspace } from './workspace';

export interface WalkOptions {
  /** Deepest level returned; children of the start folder are depth 1. Default: no limit. */
  maxDepth?: number;
  /** Also return folders (for trees). Files only by default. */
  includeDirectories?: boolean;
  signal?: AbortSignal;
  /** Share the tool call's file-system view (default: a new one from the workspace). */
  fs?: AdaptiveFs;
  /** Entries kept before the walk reports itself truncated. Default: the workspace's `maxWalkEntries`. */
  maxEntries?: number;
}

export interface WalkEntry {
  /** What to open: the real path for a symlinked file, otherwise the path under the real start folder. */
  absolute: string;
  /** Posix, relative to `root`. */
  relative: string;
  root: string;
  type: 'file' | 'dir';
  /** 1 for children of the start folder; 0 when the walk started at a file. */
  depth: number;
}

export interface WalkResult {
  /** Sorted by path, segment by segment, so folders' contents follow them and output is stable. */
  entries: WalkEntry[];
  /** The workspace's `maxWalkEntries` safety net was hit. */
  truncated: boolean;
  /** Folders that could not be listed (permissions); the rest of the walk went on. */
  unreadableFolders: string[];
}

interface FolderTask {
  absolute: string;
  relative: string;
  depth: number;
  chain: IgnoreChain;
}

/**
 * The one walker behind every file tool, so they agree on what the workspace contains: .gitignore
 * files at every level, the default ignore list, the secret deny-list, no binaries by extension,
 * and symlinks followed only to files that stay inside the workspace. Symlinked folders are not
 * entered (their targets, if inside, are walked where they live; entering them invites cycles).
 * Folders are listed with bounded concurrency and the result sorted once at the end.
 */
export async function walkWorkspace(workspace: Workspace, start: ResolvedPath, options: WalkOptions = {}): Promise<WalkResult> {
  const { signal, includeDirectories = false, maxDepth = Number.POSITIVE_INFINITY } = options;
  const fs = options.fs ?? workspace.createFs();
  const readText = (path: string) => fs.readText(path);
  throwIfAborted(signal);
  const result: WalkResult = { entries: [], truncated: false, unreadableFolders: [] };
  if (!(await fs.stat(start.absolute)).isDirectory()) {
    result.entries.push({ ...start, type: 'file', depth: 0 });
    return result;
  }
  const { limits, secrets } = workspace;
  const walkedRoot = start.root;
  const maxEntries = options.maxEntries ?? limits.maxWalkEntries;

  const emit = (entry: WalkEntry): void => {
    if (result.entries.length >= maxEntries) result.truncated = true;
    else result.entries.push(entry);
  };

  const visit = async (folder: FolderTask): Promise<FolderTask[]> => {
    await fs.pause();
    throwIfAborted(signal);
    let dirents: Dirent[];
    try {
      dirents = await fs.readdir(folder.absolute);
    } catch (error) {
      if (folder.depth === 0) throw error;
      result.unreadableFolders.push(folder.relative);
      return [];
    }
    let chain = folder.chain;
    if (dirents.some((d) => d.name === '.gitignore' && d.isFile())) {
      const layer = await loadGitignoreLayer(folder.absolute, folder.relative === '.' ? '' : folder.relative, readText);
      if (layer) chain = [...chain, layer];
    }
    const subfolders: FolderTask[] = [];
    const depth = folder.depth + 1;
    for (const dirent of dirents) {
      const name = dirent.name;
      const relative = folder.relative === '.' ? name : `${folder.relative}/${name}`;
      const absolute = folder.absolute.endsWith(sep) ? folder.absolute + name : folder.absolute + sep + name;
      if (dirent.isDirectory()) {
        if (isDefaultIgnoredDirectory(name) || isIgnoredByChain(chain, relative, true)) continue;
        const denied = secrets.isDeniedEntry(relative, name, true);
        // With an allow-list a denied folder may still hold allowed files, so it is entered but not shown.
        if (denied && !secrets.hasAllowList) continue;
        if (includeDirectories && !denied) emit({ absolute, relative, root: walkedRoot, type: 'dir', depth });
        if (depth < maxDepth) subfolders.push({ absolute, relative, depth, chain });
      } else if (dirent.isFile()) {
        if (isWalkableFile(relative, name, chain)) emit({ absolute, relative, root: walkedRoot, type: 'file', depth });
      } else if (dirent.isSymbolicLink()) {
        if (!isWalkableFile(relative, name, chain)) continue;
        const target = await symlinkedFileInside(absolute);
        if (target) emit({ absolute: target.absolute, relative, root: walkedRoot, type: 'file', depth });
      }
      // Sockets, FIFOs and devices are never content.
    }
    return result.truncated ? [] : subfolders;
  };

  const isWalkableFile = (relative: string, name: string, chain: IgnoreChain): boolean =>
    !isDefaultIgnoredFile(name) && !secrets.isDeniedEntry(relative, name) && !isIgnoredByChain(chain, relative, false);

  /** A symlink counts only if it ends at a file inside the workspace whose real path is not a secret. */
  const symlinkedFileInside = async (linkPath: string): Promise<ResolvedPath | undefined> => {
    try {
      const target = workspace.locateReal(await fs.realpath(linkPath));
      if (!target || secrets.isDenied(target.relative)) return undefined;
      return (await fs.stat(target.absolute)).isFile() ? target : undefined;
    } catch {
      return undefined; // broken link
    }
  };

  const startChain = await ancestorChain(start, readText);
  await runFolderQueue({ absolute: start.absolute, relative: start.relative, depth: 0, chain: startChain }, visit, limits.ioConcurrency, signal);
  result.entries.sort(comparePaths);
  return result;
}

/**
 * Whether the walk would list this file: the same default ignores, .gitignore files and secret policy,
 * decided for one path, so a watcher's "this file changed" cannot bring in what a walk leaves out.
 */
export async function isWalkedFile(workspace: Workspace, target: ResolvedPath, fs: AdaptiveFs = workspace.createFs()): Promise<boolean> {
  if (target.relative === '.') return false;
  const segments = target.relative.split('/');
  const name = segments.at(-1)!;
  if (segments.slice(0, -1).some(isDefaultIgnoredDirectory) || isDefaultIgnoredFile(name)) return false;
  if (workspace.secrets.isDenied(target.relative)) return false;
  const chain = [];
  for (let i = 0; i < segments.length; i++) {
    const layer = await loadGitignoreLayer(join(target.root, ...segments.slice(0, i)), segments.slice(0, i).join('/'), (path) => fs.readText(path));
    if (layer) chain.push(layer);
    // A folder an ignore rule excludes is never entered, whatever rules below it say.
    if (i < segments.length - 1 && isIgnoredByChain(chain, segments.slice(0, i + 1).join('/'), true)) return false;
  }
  return !isIgnoredByChain(chain, target.relative, false);
}

/**
 * .gitignore files between the root and the start folder still apply below it, unless the start
 * folder is itself ignored: then the user asked for it explicitly and gets its contents.
 */
async function ancestorChain(start: ResolvedPath, readText: (path: string) => Promise<string>): Promise<IgnoreChain> {
  if (start.relative === '.') return [];
  const segments = start.relative.split('/');
  if (segments.some(isDefaultIgnoredDirectory)) return [];
  const chain = [];
  for (let i = 0; i < segments.length; i++) {
    const base = segments.slice(0, i).join('/');
    const layer = await loadGitignoreLayer(join(start.root, ...segments.slice(0, i)), base, readText);
    if (layer) chain.push(layer);
  }
  return isIgnoredByChain(chain, start.relative, true) ? [] : chain;
}

/** Breadth-agnostic work queue: up to `limit` folders listed at once, stopping on the first error or abort. */
function runFolderQueue(first: FolderTask, visit: (task: FolderTask) => Promise<FolderTask[]>, limit: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue: FolderTask[] = [first];
    let active = 0;
    let settled = false;
    const fail = (error: unknown): void => {
      if (!settled) reject(error);
      settled = true;
    };
    const pump = (): void => {
      if (settled) return;
      if (signal?.aborted) return fail(abortError(signal));
      while (active < limit && queue.length > 0) {
        const task = queue.pop() as FolderTask;
        active++;
        visit(task).then((more) => {
          active--;
          for (const next of more) queue.push(next);
          pump();
        }, fail);
      }
      if (active === 0 && queue.length === 0) {
        settled = true;
        resolve();
      }
    };
    pump();
  });
}
