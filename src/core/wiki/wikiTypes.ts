/**
 * The wiki's vocabulary: modules found from the code index, and the facts a page shows about each.
 * Types only, so every part of the wiki (and the hosts that show it) can import it without cycles.
 */

/** A definition as a page names it: enough to link to it and say what it is. */
export interface KeyDefinition {
  name: string;
  kind: string;
  path: string;
  line: number;
  signature: string;
  container?: string;
  doc?: string;
  /** How many other files mention its name. */
  uses: number;
}

export interface EntryPoint {
  path: string;
  /** Why it counts as a way in: its name (`main.go`, `index.ts`) or how many other modules use it. */
  reason: string;
}

/** Another module this one leans on (or that leans on this one), with how strongly. */
export interface ModuleLink {
  module: string;
  /** Summed edge weight of the file graph between the two. */
  weight: number;
  /** The other module's files on the link, most linked first (a few). */
  files: string[];
}

/** A unit of code the wiki gives a page: a package or a folder (sometimes with small neighbours merged in). */
export interface WikiModule {
  /** Its main folder as tools show paths (`src/core/engine`; `.` for the workspace's top level). */
  id: string;
  /** Folders merged into it because they were too small to stand alone and lean on it most. */
  alsoFolders: string[];
  /** The page's path inside the wiki folder: `modules/<slug>.md`. */
  page: string;
  /** Its files, best ranked first. */
  files: string[];
  languages: string[];
  /** Sum of its files' global ranks: how much the workspace leans on it. */
  rank: number;
  /** sha256 over its files' paths and content hashes: changes exactly when one of its files does. */
  sources: string;
  definitions: KeyDefinition[];
  entryPoints: EntryPoint[];
  dependsOn: ModuleLink[];
  usedBy: ModuleLink[];
}

/** The whole workspace as the wiki sees it. */
export interface WikiStructure {
  modules: WikiModule[];
  /** Module edges for the architecture diagram: [from id, to id, weight]. */
  links: Array<[string, string, number]>;
  /** Code files in modules; files the wiki leaves out (tests, docs, generated) are not counted. */
  codeFiles: number;
  /** sha256 over the module list and its links: the overview's prose is stale when it changes. */
  sources: string;
}
