import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { relativeInside, type Workspace } from '../../workspace/workspace';
import { DEFAULT_SECRET_PATTERNS } from '../../workspace/secretPolicy';
import { WorkspaceAccessError, quotePath } from '../../workspace/workspaceErrors';
import { formatBytes, looksBinary } from '../../workspace/readTextFile';

/** A file the write tools may create or replace: inside the workspace by real path, not a secret, not under `.git`. */
export interface WritableTarget {
  /** Real path of the file, or of where it will be created (its existing parent resolved). */
  absolute: string;
  /** How tools and previews show it: workspace-relative (`<folder name>/…` in another folder), forward slashes. */
  display: string;
  exists: boolean;
  /** The folder to create first, when the file's parent does not exist yet. */
  createDir?: string;
}

/**
 * Resolves a model-supplied path for writing with the same confinement as reads (security promise
 * #7): an existing file goes through `Workspace.resolve` (real paths, symlinks that lead out
 * refused); a new file's nearest existing ancestor must be inside the workspace by real path.
 * Writing inside `.git` is refused too: a hook written there would run commands without ever
 * asking for execute approval.
 */
export async function resolveWritableTarget(workspace: Workspace, userPath: string): Promise<WritableTarget> {
  if (!userPath.trim()) throw new WorkspaceAccessError('not-found', userPath, 'a file path is required');
  try {
    const target = await workspace.resolve(userPath);
    assertWritablePath(workspace, userPath, target.relative);
    if (!(await stat(target.absolute)).isFile()) throw new WorkspaceAccessError('not-a-file', userPath, `${quotePath(userPath)} is not a file`);
    return { absolute: target.absolute, display: workspace.displayPath(target), exists: true };
  } catch (error) {
    if (!(error instanceof WorkspaceAccessError) || error.code !== 'not-found') throw error;
  }

  // Where the path points before symlinks, in whichever folder it names (`lib/…` is the folder lib's).
  const lexical = (await workspace.locate(userPath)).absolute;
  const missing = [basename(lexical)];
  let ancestor = dirname(lexical);
  while (!(await exists(ancestor))) {
    if (dirname(ancestor) === ancestor)
      throw new WorkspaceAccessError('outside-workspace', userPath, `${quotePath(userPath)} is outside the workspace (${workspace.roots.join(', ')})`);
    missing.unshift(basename(ancestor));
    ancestor = dirname(ancestor);
  }
  const realAncestor = await realpath(ancestor);
  const root = workspace.locateReal(realAncestor);
  if (!root) throw new WorkspaceAccessError('outside-workspace', userPath, `${quotePath(userPath)} is outside the workspace (${workspace.roots.join(', ')})`);
  if (!(await stat(realAncestor)).isDirectory())
    throw new WorkspaceAccessError('not-a-directory', userPath, `${quotePath(userPath)}: ${quotePath(workspace.displayPath(root))} is a file, not a folder`);
  const absolute = join(realAncestor, ...missing);
  const relative = relativeInside(root.root, absolute);
  if (relative === undefined || relative === '.')
    throw new WorkspaceAccessError('outside-workspace', userPath, `${quotePath(userPath)} is outside the workspace (${workspace.roots.join(', ')})`);
  assertWritablePath(workspace, userPath, relative);
  return {
    absolute,
    display: workspace.displayPath({ root: root.root, relative, absolute }),
    exists: false,
    createDir: missing.length > 1 ? join(realAncestor, ...missing.slice(0, -1)) : undefined,
  };
}

function assertWritablePath(workspace: Workspace, userPath: string, relative: string): void {
  if (workspace.secrets.isDenied(relative)) {
    throw new WorkspaceAccessError(
      'secret',
      userPath,
      `${quotePath(userPath)} may contain secrets (it matches one of ${DEFAULT_SECRET_PATTERNS.join(', ')}); CodeWiki does not write it`,
    );
  }
  if (relative.split('/').some((segment) => segment.toLowerCase() === '.git')) {
    throw new WorkspaceAccessError('outside-workspace', userPath, `${quotePath(userPath)} is inside .git; CodeWiki does not write there`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The current text of an existing target; refuses binaries and files over the size cap, which cannot be previewed as a diff. */
export async function readTargetText(target: WritableTarget, userPath: string, maxBytes: number): Promise<string> {
  const handle = await open(target.absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new WorkspaceAccessError('too-large', userPath, `${quotePath(userPath)} is larger than the ${formatBytes(maxBytes)} limit for edits`);
    const bytes = await handle.readFile();
    if (looksBinary(bytes.subarray(0, 8192)))
      throw new WorkspaceAccessError('binary', userPath, `${quotePath(userPath)} is a binary file; CodeWiki only edits text files`);
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` to the target, provided the file is still as the preview saw it: still absent
 * for a new file (O_EXCL), still holding `expected` for an existing one. Symlinks swapped in since
 * the path was resolved are not followed (O_NOFOLLOW).
 */
export async function writeTarget(target: WritableTarget, userPath: string, content: string, expected: string | undefined): Promise<void> {
  const noFollow = constants.O_NOFOLLOW ?? 0;
  if (!target.exists) {
    if (target.createDir) await mkdir(target.createDir, { recursive: true });
    const handle = await open(target.absolute, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o666).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST')
          throw new Error(`${quotePath(userPath)} was created by something else after the change was previewed; nothing was written. Read it and try again.`);
        throw error;
      },
    );
    try {
      await handle.writeFile(content, 'utf8');
    } finally {
      await handle.close();
    }
    return;
  }
  const handle = await open(target.absolute, constants.O_RDWR | noFollow);
  try {
    const current = (await handle.readFile()).toString('utf8');
    if (current !== expected)
      throw new Error(`${quotePath(userPath)} changed on disk after the change was previewed; nothing was written. Read it again and retry.`);
    await handle.truncate(0);
    await handle.write(content, 0, 'utf8');
  } finally {
    await handle.close();
  }
}
