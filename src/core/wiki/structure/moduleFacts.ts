import { createHash } from 'node:crypto';
import type { CodeStructure, StructureFile } from '../../codebaseIndex/codeIndexTypes';
import type { EntryPoint, KeyDefinition, ModuleLink } from '../wikiTypes';
import type { Neighbours } from './moduleSplit';

/** Kinds a reader navigates by; variables and fields rarely explain a module. */
const KEY_KINDS = new Set(['class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'function', 'method', 'macro', 'constant']);
/** Constructors and dunder methods say little; every class has them. */
const BOILERPLATE = /^(__\w+__|constructor|init|new|New|String|toString|Error|default|main)$/;
/** File names that are a module's way in by convention. */
const ENTRY_NAME = /(^|\/)(main|index|__init__|__main__|mod|lib|app|cli|server|cmd)\.[a-z]+$/i;
export const MAX_DEFINITIONS = 10;
/** Types and functions explain a module; constants and methods fill in. */
const KIND_WEIGHT: Record<string, number> = {
  class: 1,
  interface: 1,
  type: 0.9,
  enum: 0.8,
  struct: 1,
  trait: 1,
  module: 0.8,
  function: 0.9,
  method: 0.6,
  macro: 0.6,
  constant: 0.4,
};
const MAX_ENTRY_POINTS = 4;
const MAX_LINK_FILES = 3;

/** The most important definitions: in the best-ranked files, used the most, top-level before members. */
export function keyDefinitions(files: readonly StructureFile[]): KeyDefinition[] {
  const scored: Array<{ definition: KeyDefinition; score: number }> = [];
  for (const file of files) {
    for (const symbol of file.symbols) {
      if (!KEY_KINDS.has(symbol.kind) || BOILERPLATE.test(symbol.name) || (symbol.kind === 'constant' && symbol.uses === 0)) continue;
      const score = (file.rank + 1e-6) * KIND_WEIGHT[symbol.kind]! * (symbol.container ? 0.4 : 1) * specificity(symbol.name) * (1 + Math.log1p(symbol.uses));
      const { name, kind, line, signature, container, doc, uses } = symbol;
      scored.push({ definition: { name, kind, path: file.path, line, signature, uses, ...(container ? { container } : {}), ...(doc ? { doc } : {}) }, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.definition.path.localeCompare(b.definition.path) || a.definition.line - b.definition.line);
  const seen = new Set<string>();
  const kept: KeyDefinition[] = [];
  for (const { definition } of scored) {
    const key = `${definition.container ?? ''}.${definition.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(definition);
    if (kept.length === MAX_DEFINITIONS) break;
  }
  return kept;
}

/**
 * A short lowercase name (`key`, `read`) is mentioned everywhere for other reasons, so its use count says
 * little; a long compound name (`CustomAgentExecutor`, `parse_config`) is mentioned because it is used.
 */
function specificity(name: string): number {
  if (/[a-z][A-Z]|[A-Za-z]_[A-Za-z]/.test(name) && name.length >= 8) return 1;
  if (/^[a-z]+$/.test(name) && name.length < 7) return 0.2;
  return 0.6;
}

/** Ways in: files named as entry points, then the files other modules use most. */
export function entryPoints(members: readonly number[], structure: CodeStructure, neighbours: Neighbours, inModule: (file: number) => boolean): EntryPoint[] {
  const found: EntryPoint[] = [];
  for (const file of members) {
    const path = structure.files[file]!.path;
    if (ENTRY_NAME.test(path)) found.push({ path, reason: 'entry point by name' });
  }
  const usedFromOutside = new Map<number, number>();
  for (const [from, to, weight] of structure.edges) {
    if (inModule(to) && !inModule(from)) usedFromOutside.set(to, (usedFromOutside.get(to) ?? 0) + weight);
  }
  const byUse = [...usedFromOutside].sort((a, b) => b[1] - a[1] || structure.files[a[0]]!.path.localeCompare(structure.files[b[0]]!.path));
  for (const [file] of byUse) {
    const path = structure.files[file]!.path;
    if (found.some((entry) => entry.path === path)) continue;
    const users = new Set((neighbours[file] ?? []).map(([other]) => other).filter((other) => !inModule(other))).size;
    found.push({ path, reason: `used by ${users} file${users === 1 ? '' : 's'} outside the module` });
    if (found.length >= MAX_ENTRY_POINTS) break;
  }
  return found.slice(0, MAX_ENTRY_POINTS);
}

/** Summed edges from this module's files to each other module (or from each other module, with `incoming`). */
export function moduleLinks(structure: CodeStructure, moduleOf: ReadonlyArray<string | undefined>, id: string, incoming: boolean): ModuleLink[] {
  const byModule = new Map<string, { weight: number; files: Map<string, number> }>();
  for (const [from, to, weight] of structure.edges) {
    const [mine, theirs] = incoming ? [to, from] : [from, to];
    const other = moduleOf[theirs];
    if (moduleOf[mine] !== id || other === undefined || other === id) continue;
    const link = byModule.get(other) ?? { weight: 0, files: new Map<string, number>() };
    link.weight += weight;
    const path = structure.files[theirs]!.path;
    link.files.set(path, (link.files.get(path) ?? 0) + weight);
    byModule.set(other, link);
  }
  return [...byModule]
    .map(([module, link]) => ({
      module,
      weight: link.weight,
      files: [...link.files]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, MAX_LINK_FILES)
        .map(([path]) => path),
    }))
    .sort((a, b) => b.weight - a.weight || a.module.localeCompare(b.module));
}

/** sha256 over sorted `path hash` lines: the same files with the same contents give the same value. */
export function sourcesHash(files: ReadonlyArray<Pick<StructureFile, 'path' | 'hash'>>): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => a.path.localeCompare(b.path))) hash.update(`${file.path} ${file.hash}\n`);
  return hash.digest('hex');
}
