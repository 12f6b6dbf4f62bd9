import { basename, resolve } from 'node:path';

/** One folder of a workspace: its path, and the name VS Code shows for it (a `.code-workspace` file may rename it). */
export interface WorkspaceFolderSpec {
  path: string;
  /** Default: the folder's base name. */
  name?: string;
}

/** A folder as given to `Workspace.open`: a path, or a path with its name. */
export type WorkspaceFolderInput = string | WorkspaceFolderSpec;

export function folderSpecOf(input: WorkspaceFolderInput): Required<WorkspaceFolderSpec> {
  const path = resolve(typeof input === 'string' ? input : input.path);
  const name = typeof input === 'string' ? undefined : input.name;
  return { path, name: name ?? (basename(path) || path) };
}

/**
 * How each folder's paths begin when shown to the model and the user, VS Code's own convention
 * (`asRelativePath(uri, true)`): the first folder's paths are bare (`src/a.ts`), as in a one-folder
 * workspace; another folder's start with its name (`lib/src/a.ts`). A name that cannot be told apart
 * (two folders of that name, or one with a slash in it) gets `undefined`: that folder's paths are shown
 * absolute, which every tool accepts too.
 */
export function folderPrefixes(names: readonly string[]): Array<string | undefined> {
  const counts = new Map<string, number>();
  for (const name of names.slice(1)) counts.set(name, (counts.get(name) ?? 0) + 1);
  return names.map((name, index) => {
    if (index === 0) return '';
    return isPlainName(name) && counts.get(name) === 1 ? name : undefined;
  });
}

/** A name usable as a path's first segment: not empty, not `.` or `..`, no separators. */
function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !/[\\/\0]/.test(name);
}

/**
 * A path as shown for a folder: bare in the first folder (`./` in front when its first segment is
 * another folder's name, which would otherwise win), `<name>/…` in the others, absolute when the
 * folder has no usable name.
 */
export function folderDisplayPath(prefixes: readonly (string | undefined)[], index: number, relative: string, absolute: string): string {
  if (index === 0) {
    const first = relative.split('/')[0];
    return first !== '.' && prefixes.slice(1).includes(first) ? `./${relative}` : relative;
  }
  const prefix = prefixes[index];
  if (prefix === undefined || index < 0) return absolute;
  return relative === '.' ? prefix : `${prefix}/${relative}`;
}
