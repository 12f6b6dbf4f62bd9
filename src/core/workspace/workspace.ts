import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AdaptiveFs } from './adaptiveFs';
import { DEFAULT_SECRET_PATTERNS, SecretPolicy } from './secretPolicy';
import { WorkspaceAccessError, quotePath } from './workspaceErrors';
import { folderDisplayPath, folderPrefixes, folderSpecOf, type WorkspaceFolderInput } from './workspaceFolders';

export interface WorkspaceOptions {
  /** Gitignore-style patterns that un-deny secret files, e.g. `.env.example` (the setting `codewiki.allowSecretFiles`). */
  allowSecrets?: string[];
  /**
   * How the user of this host allow-lists a secret file, for the refusal message. Default: the
   * VS Code setting; the CLI names its environment variable instead.
   */
  allowSecretsHint?: string;
  /** Larger files are read truncated, with a visible marker. Default 1 MiB. */
  maxFileBytes?: number;
  /** Content returned by one tool call. Default 8 MiB. */
  maxTotalBytes?: number;
  /** Safety net for a single walk so a huge or generated tree cannot exhaust memory. Default 200,000. */
  maxWalkEntries?: number;
  /** Files and folders read at the same time when I/O is asynchronous. Default 32. */
  ioConcurrency?: number;
  /**
   * Longest stretch of synchronous file-system calls before yielding to the event loop (see
   * `AdaptiveFs`). Default 12 ms; 0 makes every call asynchronous.
   */
  ioSliceMs?: number;
}

export type WorkspaceLimits = Required<Omit<WorkspaceOptions, 'allowSecrets' | 'allowSecretsHint' | 'ioSliceMs'>>;

const DEFAULT_ALLOW_SECRETS_HINT = 'add a pattern for it to the user setting codewiki.allowSecretFiles';

export interface ResolvedPath {
  /** Real path: symlinks resolved. */
  absolute: string;
  /** Posix, relative to `root`; '.' for the root itself. */
  relative: string;
  /** The workspace root (real path) that contains the target. */
  root: string;
}

/** What separates a path's segments as the user writes it: `/`, and on Windows `\\` too. */
const SEPARATOR = sep === '/' ? /\// : /[\\/]/;

const DEFAULT_LIMITS: WorkspaceLimits = {
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
  maxWalkEntries: 200_000,
  ioConcurrency: 32,
};

/**
 * The folders the file tools may touch (security promise #7). Every user- or model-supplied
 * path goes through `resolve`, which compares real paths, so `..`, absolute paths and symlinks
 * cannot reach outside, and the secret deny-list is applied to both the requested and the real path.
 *
 * A workspace may have several folders (a VS Code multi-root workspace). Paths in the first folder
 * are written as in a one-folder workspace (`src/a.ts`); paths in another folder start with that
 * folder's name (`lib/src/a.ts`), as VS Code writes them; absolute paths inside any folder work too.
 * When the first folder also has an entry of another folder's name, the folder wins and `./lib/…`
 * names the first folder's entry (`displayPath` writes it so).
 */
export class Workspace {
  /** Real path of the primary root; relative paths resolve against it. */
  readonly root: string;
  /** Each root's name as the user sees it (a `.code-workspace` file may rename a folder). */
  readonly folderNames: readonly string[];
  /** How each root's paths begin when shown (see `folderPrefixes`): '' for the first root. */
  private readonly prefixes: ReadonlyArray<string | undefined>;

  private constructor(
    readonly roots: readonly string[],
    /** The roots as given (made absolute), so absolute paths spelled through a symlinked root still match. */
    private readonly givenRoots: readonly string[],
    names: readonly string[],
    readonly secrets: SecretPolicy,
    readonly limits: WorkspaceLimits,
    private readonly ioSliceMs: number | undefined,
    private readonly allowSecretsHint: string,
  ) {
    this.root = roots[0] as string;
    this.folderNames = names;
    this.prefixes = folderPrefixes(names);
  }

  static async open(roots: WorkspaceFolderInput | WorkspaceFolderInput[], options: WorkspaceOptions = {}): Promise<Workspace> {
    const specs = (Array.isArray(roots) ? roots : [roots]).map(folderSpecOf);
    const given = specs.map((spec) => spec.path);
    if (given.length === 0) throw new Error('A workspace needs at least one folder');
    const real: string[] = [];
    for (const folder of given) {
      const realFolder = await realpath(folder).catch(() => {
        throw new WorkspaceAccessError('not-found', folder, `Workspace folder ${quotePath(folder)} does not exist`);
      });
      if (!(await stat(realFolder)).isDirectory()) {
        throw new WorkspaceAccessError('not-a-directory', folder, `Workspace folder ${quotePath(folder)} is not a folder`);
      }
      real.push(realFolder);
    }
    const limits: WorkspaceLimits = { ...DEFAULT_LIMITS };
    for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof WorkspaceLimits>) {
      const value = options[key];
      if (value !== undefined) {
        if (!Number.isFinite(value) || value <= 0) throw new Error(`Workspace option ${key} must be a positive number`);
        limits[key] = Math.floor(value);
      }
    }
    if (options.ioSliceMs !== undefined && !(options.ioSliceMs >= 0)) throw new Error('Workspace option ioSliceMs must be 0 or more');
    const names = specs.map((spec) => spec.name);
    return new Workspace(
      real,
      given,
      names,
      new SecretPolicy(options.allowSecrets),
      limits,
      options.ioSliceMs,
      options.allowSecretsHint ?? DEFAULT_ALLOW_SECRETS_HINT,
    );
  }

  /** A fresh file-system view for one tool call; it decides per call whether blocking I/O is safe. */
  createFs(): AdaptiveFs {
    return new AdaptiveFs({ sliceMs: this.ioSliceMs });
  }

  async resolve(userPath: string): Promise<ResolvedPath> {
    if (userPath.includes('\0')) {
      throw new WorkspaceAccessError('nul-byte', userPath, `${quotePath(userPath)} contains a NUL byte`);
    }
    const requested = await this.locate(userPath);
    this.assertNotSecret(userPath, requested.relative);

    let real: string;
    try {
      real = await realpath(requested.absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new WorkspaceAccessError('not-found', userPath, `${quotePath(userPath)} does not exist in the workspace`);
      }
      throw new WorkspaceAccessError('unreadable', userPath, `${quotePath(userPath)} cannot be read (${code ?? 'error'})`);
    }
    const target = this.locateReal(real);
    if (!target) {
      throw new WorkspaceAccessError(
        'outside-workspace',
        userPath,
        `${quotePath(userPath)} is a symbolic link that leads outside the workspace (${this.roots.join(', ')})`,
      );
    }
    this.assertNotSecret(userPath, target.relative);
    return target;
  }

  /** The root (real path) containing an already-real absolute path, or undefined if none does. */
  locateReal(realPath: string): ResolvedPath | undefined {
    for (const root of this.roots) {
      const rel = relativeInside(root, realPath);
      if (rel !== undefined) return { absolute: realPath, relative: rel, root };
    }
    return undefined;
  }

  /**
   * How tools show a path, and what `resolve` takes back: relative for the first root, `<folder
   * name>/relative` for the others (absolute when a folder's name is not unique).
   */
  displayPath(target: { root: string; relative: string; absolute: string }): string {
    return folderDisplayPath(this.prefixes, this.roots.indexOf(target.root), target.relative, toPosix(target.absolute));
  }

  /** An absolute path as tools show it when it lies in a folder (no disk access); other paths as given. */
  displayAbsolutePath(path: string): string {
    if (!isAbsolute(path)) return path;
    try {
      return this.displayPath(this.locateLexically(path));
    } catch {
      return path;
    }
  }

  /**
   * Where a path the user or the model wrote points, before touching the disk beyond one lookup: catches
   * `..` escapes and absolute paths elsewhere. Nothing is resolved through symlinks yet (`resolve` does).
   * A path may start with the first folder's own name, as VS Code writes paths in a multi-root workspace,
   * unless the first folder has an entry of that name.
   */
  async locate(userPath: string): Promise<{ absolute: string; relative: string; root: string }> {
    const path = userPath === '' ? '.' : userPath;
    const [first, ...rest] = path.split(SEPARATOR);
    const firstName = this.folderNames[0];
    if (this.roots.length > 1 && first === firstName && !this.prefixes.includes(first) && !(await existsIn(this.root, first))) {
      return this.inside(0, rest.join('/') || '.', userPath);
    }
    return this.locateLexically(path, userPath);
  }

  /** `locate` without the disk: how `displayPath`'s paths map back (the index's hits, for one). */
  locateLexically(path: string, userPath: string = path): { absolute: string; relative: string; root: string } {
    if (isAbsolute(path)) {
      const absolute = resolve(path);
      for (const roots of [this.roots, this.givenRoots]) {
        for (const [index, root] of roots.entries()) {
          const rel = relativeInside(root, absolute);
          if (rel !== undefined) return { absolute, relative: rel, root: this.roots[index] as string };
        }
      }
      throw this.outside(userPath);
    }
    const [first, ...rest] = path.split(SEPARATOR);
    const index = first ? this.prefixes.indexOf(first, 1) : -1;
    if (index > 0) return this.inside(index, rest.join('/') || '.', userPath);
    return this.inside(0, path, userPath);
  }

  private inside(index: number, path: string, userPath: string): { absolute: string; relative: string; root: string } {
    const root = this.roots[index] as string;
    const absolute = resolve(root, path);
    const rel = relativeInside(root, absolute);
    if (rel === undefined) throw this.outside(userPath);
    return { absolute, relative: rel, root };
  }

  private outside(userPath: string): WorkspaceAccessError {
    return new WorkspaceAccessError('outside-workspace', userPath, `${quotePath(userPath)} is outside the workspace (${this.roots.join(', ')})`);
  }

  private assertNotSecret(userPath: string, relativePath: string): void {
    if (this.secrets.isDenied(relativePath)) {
      throw new WorkspaceAccessError(
        'secret',
        userPath,
        `${quotePath(userPath)} may contain secrets (it matches one of ${DEFAULT_SECRET_PATTERNS.join(', ')}); ` +
          `CodeWiki does not read it; to allow it, ${this.allowSecretsHint}`,
      );
    }
  }
}

/** Posix path of `target` relative to `root` ('.' for the root), or undefined when it is not inside. */
export function relativeInside(root: string, target: string): string | undefined {
  const rel = relative(root, target);
  if (rel === '') return '.';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return toPosix(rel);
}

async function existsIn(folder: string, name: string): Promise<boolean> {
  return lstat(resolve(folder, name)).then(
    () => true,
    () => false,
  );
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}
