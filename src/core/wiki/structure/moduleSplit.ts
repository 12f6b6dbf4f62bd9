import { type FolderNode, filesUnder } from './folderTree';

/** A module larger than this is split into its folders, unless the file graph says they belong together. */
export const MAX_MODULE_FILES = 50;
/** A folder smaller than this joins the module it leans on most: three files rarely make a unit worth a page. */
export const MIN_MODULE_FILES = 4;
/** Of the edges among a folder's parts, this share or more running between different parts keeps them one module. */
const COUPLED_SHARE = 0.5;

export interface ModuleGroup {
  id: string;
  alsoFolders: string[];
  files: number[];
}

/** Undirected neighbours per file index, with the file graph's edge weights. */
export type Neighbours = ReadonlyArray<ReadonlyArray<readonly [number, number]>>;

export function neighboursOf(fileCount: number, edges: ReadonlyArray<readonly [number, number, number]>): Neighbours {
  const found: Array<Array<readonly [number, number]>> = Array.from({ length: fileCount }, () => []);
  for (const [from, to, weight] of edges) {
    found[from]?.push([to, weight]);
    found[to]?.push([from, weight]);
  }
  return found;
}

/**
 * The workspace's modules, chosen from its folders and its file graph together: a folder small enough is one
 * module; a larger one splits into its subfolders unless their files use each other more than themselves
 * (then they stay one unit, up to twice the size); a folder that holds a package manifest always stands
 * alone; and a folder too small for a page joins the neighbouring module it has the most edges with.
 */
export function splitModules(workspace: FolderNode, neighbours: Neighbours, isPackageRoot: (folder: string) => boolean): ModuleGroup[] {
  // A workspace whose code is all under one folder (`src/`) starts there: its modules are named from it.
  let tree = workspace;
  while (tree.files.length === 0 && tree.children.size === 1) tree = [...tree.children.values()][0]!;
  const packageBelow = new Map<FolderNode, boolean>();
  const hasPackageBelow = (node: FolderNode): boolean => {
    let found = packageBelow.get(node);
    if (found === undefined) {
      found = [...node.children.values()].some((child) => isPackageRoot(child.path) || hasPackageBelow(child));
      packageBelow.set(node, found);
    }
    return found;
  };
  const split = (node: FolderNode): ModuleGroup[] => {
    if (node.total === 0) return [];
    const whole = (): ModuleGroup[] => [{ id: node.path, alsoFolders: [], files: filesUnder(node) }];
    // The top of the workspace or of a package is not one module when it has parts worth a page each: a small
    // repository (gin: 40 files at the top, binding/, render/) would otherwise be a single page about everything.
    const top = node === tree || isPackageRoot(node.path);
    if (!hasPackageBelow(node) && !(top && sizableParts(node) >= 2)) {
      if (node.total <= MAX_MODULE_FILES) return whole();
      if (node.total <= 2 * MAX_MODULE_FILES && partsAreCoupled(node, neighbours)) return whole();
    }
    const parts: ModuleGroup[] = node.files.length ? [{ id: node.path, alsoFolders: [], files: [...node.files] }] : [];
    for (const child of sortedChildren(node)) parts.push(...split(child));
    return mergeSmall(parts, node.path, neighbours, isPackageRoot);
  };
  return split(tree).sort((a, b) => a.id.localeCompare(b.id));
}

/** Parts of a folder big enough for a page of their own: its own files, and each subfolder, of MIN_MODULE_FILES or more. */
function sizableParts(node: FolderNode): number {
  const own = node.files.length >= MIN_MODULE_FILES ? 1 : 0;
  return own + [...node.children.values()].filter((child) => child.total >= MIN_MODULE_FILES).length;
}

function sortedChildren(node: FolderNode): FolderNode[] {
  return [...node.children.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** Whether the edges among a folder's parts (its own files, each subfolder) mostly cross from part to part. */
function partsAreCoupled(node: FolderNode, neighbours: Neighbours): boolean {
  const partOf = new Map<number, number>();
  node.files.forEach((file) => partOf.set(file, 0));
  sortedChildren(node).forEach((child, index) => filesUnder(child).forEach((file) => partOf.set(file, index + 1)));
  let across = 0;
  let within = 0;
  for (const [file, part] of partOf) {
    for (const [other, weight] of neighbours[file] ?? []) {
      const otherPart = partOf.get(other);
      if (otherPart === undefined) continue;
      if (otherPart === part) within += weight;
      else across += weight;
    }
  }
  return across + within > 0 && across / (across + within) >= COUPLED_SHARE;
}

/**
 * Small parts join the part they have the heaviest edges with, else the folder's own files. A package stays
 * whole, except the folder's own loose files, which may join one of its subfolders.
 */
function mergeSmall(parts: ModuleGroup[], folder: string, neighbours: Neighbours, isPackageRoot: (folder: string) => boolean): ModuleGroup[] {
  const live = new Set(parts);
  const small = parts
    .filter((part) => part.files.length < MIN_MODULE_FILES && (part.id === folder || !isPackageRoot(part.id)))
    .sort((a, b) => a.files.length - b.files.length);
  for (const part of small) {
    if (live.size === 1) break;
    // Smaller parts merged into this one may have made it big enough to stand alone.
    if (part.files.length >= MIN_MODULE_FILES) continue;
    const owner = new Map<number, ModuleGroup>();
    for (const other of live) if (other !== part) for (const file of other.files) owner.set(file, other);
    const weightTo = new Map<ModuleGroup, number>();
    for (const file of part.files) {
      for (const [other, weight] of neighbours[file] ?? []) {
        const target = owner.get(other);
        if (target) weightTo.set(target, (weightTo.get(target) ?? 0) + weight);
      }
    }
    const target =
      [...weightTo].sort((a, b) => b[1] - a[1] || a[0].id.localeCompare(b[0].id))[0]?.[0] ?? [...live].find((other) => other.id === folder && other !== part);
    if (!target) continue;
    target.files.push(...part.files);
    target.alsoFolders.push(part.id, ...part.alsoFolders);
    live.delete(part);
  }
  return [...live];
}
