import { createHash } from 'node:crypto';
import type { CodeStructure } from '../../codebaseIndex/codeIndexTypes';
import type { WikiModule, WikiStructure } from '../wikiTypes';
import { isWikiCodeFile } from './codeFiles';
import { buildFolderTree } from './folderTree';
import { entryPoints, keyDefinitions, moduleLinks, sourcesHash } from './moduleFacts';
import { neighboursOf, splitModules } from './moduleSplit';
import { modulePagePath } from './pagePaths';

/** A folder holding one of these is a package: it stands alone as a module. */
const PACKAGE_MANIFEST =
  /(^|\/)(package\.json|go\.mod|Cargo\.toml|pyproject\.toml|setup\.py|pom\.xml|build\.gradle(\.kts)?|composer\.json|[^/]+\.csproj|[^/]+\.gemspec)$/;

/**
 * The wiki's structure from the code index alone, with no model: modules, each with its ranked
 * definitions, entry points and the modules on either side of it. Deterministic: the same index gives
 * the same structure, so pages are rewritten only when what they say changes.
 */
export function buildWikiStructure(structure: CodeStructure): WikiStructure {
  const packages = new Set<string>();
  for (const file of structure.files) {
    const match = PACKAGE_MANIFEST.exec(file.path);
    if (match) packages.add(file.path.slice(0, match.index) || '.');
  }
  const code: Array<[number, string]> = [];
  structure.files.forEach((file, index) => {
    if (isWikiCodeFile(file)) code.push([index, file.path]);
  });
  const neighbours = neighboursOf(structure.files.length, structure.edges);
  const groups = splitModules(buildFolderTree(code), neighbours, (folder) => packages.has(folder));
  const moduleOf: Array<string | undefined> = new Array(structure.files.length);
  for (const group of groups) for (const file of group.files) moduleOf[file] = group.id;
  const dependencies = dependencyView(structure, code.length);
  const dependencyNeighbours = neighboursOf(structure.files.length, dependencies.edges);
  const usedPages = new Set<string>();
  const modules: WikiModule[] = groups.map((group) => {
    const files = group.files.map((index) => structure.files[index]!).sort((a, b) => b.rank - a.rank || a.path.localeCompare(b.path));
    const members = new Set(group.files);
    return {
      id: group.id,
      alsoFolders: [...group.alsoFolders].sort(),
      page: modulePagePath(group.id, usedPages),
      files: files.map((file) => file.path),
      languages: [...new Set(files.map((file) => file.language))].sort(),
      rank: files.reduce((sum, file) => sum + file.rank, 0),
      sources: sourcesHash(files),
      definitions: keyDefinitions(files),
      entryPoints: entryPoints(group.files, dependencies, dependencyNeighbours, (file) => members.has(file)),
      dependsOn: moduleLinks(dependencies, moduleOf, group.id, false),
      usedBy: moduleLinks(dependencies, moduleOf, group.id, true),
    };
  });
  const links: Array<[string, string, number]> = [];
  for (const module of modules) for (const link of module.dependsOn) links.push([module.id, link.module, link.weight]);
  const overview = createHash('sha256');
  for (const module of modules) overview.update(`${module.id}\n`);
  for (const [from, to] of links) overview.update(`${from}>${to}\n`);
  return { modules, links, codeFiles: code.length, sources: overview.digest('hex') };
}

/** Below this share of code files with a resolved import, imports say too little and shared names stand in. */
const IMPORTS_ENOUGH = 0.3;

/**
 * The edges that say what depends on what: resolved imports where the language's imports resolve (a shared
 * name like `run` links unrelated modules), else the whole file graph. Modules are still split with the
 * whole graph, where shared names are a fair sign of belonging together.
 */
function dependencyView(structure: CodeStructure, codeFiles: number): CodeStructure {
  const importing = new Set(structure.imports.map(([from]) => from));
  if (codeFiles === 0 || importing.size / codeFiles < IMPORTS_ENOUGH) return structure;
  return { ...structure, edges: structure.imports.map(([from, to]): [number, number, number] => [from, to, 1]) };
}
