/** Folders of the wiki's code files, each with the files directly in it and its subfolders. */
export interface FolderNode {
  /** Path as tools show it; '.' for the top level. */
  path: string;
  /** Indices (into the structure's files) of the files directly in this folder. */
  files: number[];
  children: Map<string, FolderNode>;
  /** Code files in this folder and below. */
  total: number;
}

export function buildFolderTree(paths: ReadonlyArray<[index: number, path: string]>): FolderNode {
  const root: FolderNode = { path: '.', files: [], children: new Map(), total: 0 };
  for (const [index, path] of paths) {
    const parts = path.split('/');
    let node = root;
    node.total++;
    for (const part of parts.slice(0, -1)) {
      let child = node.children.get(part);
      if (!child) node.children.set(part, (child = { path: node.path === '.' ? part : `${node.path}/${part}`, files: [], children: new Map(), total: 0 }));
      node = child;
      node.total++;
    }
    node.files.push(index);
  }
  return root;
}

/** Every file index in the folder and below. */
export function filesUnder(node: FolderNode): number[] {
  const found = [...node.files];
  for (const child of node.children.values()) found.push(...filesUnder(child));
  return found;
}
