import type { CodeStructure } from '../../codebaseIndex/codeIndexTypes';

/** A definition a name in the prose may point at. */
export interface KnownDefinition {
  path: string;
  line: number;
}

/**
 * What exists at this commit, from the index: files, folders and definitions. The trust check asks it
 * whether a name the model wrote is real; the linker asks where it is.
 */
export class KnownNames {
  private readonly files = new Set<string>();
  private readonly byBasename = new Map<string, string[]>();
  private readonly folders = new Set<string>();
  private readonly definitions = new Map<string, KnownDefinition[]>();
  private readonly definitionsFolded = new Set<string>();

  constructor(structure: CodeStructure) {
    for (const file of structure.files) {
      this.files.add(file.path);
      const parts = file.path.split('/');
      const base = parts.at(-1)!;
      this.byBasename.set(base, [...(this.byBasename.get(base) ?? []), file.path]);
      for (let depth = 1; depth < parts.length; depth++) this.folders.add(parts.slice(0, depth).join('/'));
      for (const symbol of file.symbols) {
        const found = this.definitions.get(symbol.name) ?? [];
        found.push({ path: file.path, line: symbol.line });
        this.definitions.set(symbol.name, found);
        this.definitionsFolded.add(symbol.name.toLowerCase());
      }
    }
  }

  /** The file a path names: itself, or the one file whose path ends with it (`engine.ts`, `core/engine.ts`). */
  file(path: string): string | undefined {
    const clean = path.replace(/^\.\//, '');
    if (this.files.has(clean)) return clean;
    const candidates = (this.byBasename.get(clean.split('/').at(-1)!) ?? []).filter((file) => file === clean || file.endsWith(`/${clean}`));
    return candidates.length >= 1 ? candidates.sort((a, b) => a.length - b.length)[0] : undefined;
  }

  folder(path: string): boolean {
    const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
    return this.folders.has(clean) || [...this.folders].some((folder) => folder.endsWith(`/${clean}`));
  }

  /** Definitions of exactly this name. */
  definitionsOf(name: string): KnownDefinition[] {
    return this.definitions.get(name) ?? [];
  }

  /** Defined somewhere, ignoring case (a model writes `Parseconfig` for `parseConfig`). */
  isDefined(name: string): boolean {
    return this.definitions.has(name) || this.definitionsFolded.has(name.toLowerCase());
  }
}
