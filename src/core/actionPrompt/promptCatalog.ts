import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { registerActionPromptTool } from './actionPromptTool';
import type { ToolRegistry } from '../tools/toolRegistry';
import {
  compileActionPrompt,
  compileParsedActionPrompt,
  parseActionPromptDefinition,
  type ParsedActionPrompt,
  withSalvagedProblems,
} from './compileActionPrompt';
import type { CompiledActionPrompt, PromptSource } from './compiledActionPrompt';
import { ActionPromptError, type Diagnostic } from '../yaml/diagnostics';
import { findPromptCycles } from './promptCycles';
import type { DialectOptions } from './seedDialect';

export interface PromptFolder {
  dir: string;
  source: PromptSource;
}

export interface CatalogEntry {
  id: string;
  file: string;
  source: PromptSource;
  title: string;
  description: string;
  /** Present when the file is valid. */
  prompt?: CompiledActionPrompt;
  /** A prompt that compiled but is on a cycle of nested calls (so has no `prompt`): kept to check edited files against. */
  compiledOnCycle?: CompiledActionPrompt;
  /**
   * Without `prompt`: why it is not runnable (an invalid file is listed with its errors, never
   * hidden). With it: warnings only, which do not stop it from running.
   */
  diagnostics: Diagnostic[];
}

/** Where a workspace keeps its own action prompts. */
export const WORKSPACE_PROMPTS_DIR = join('.codewiki', 'prompts');

/**
 * Every action prompt the user can run: built-in, workspace and extra folders. Loading is two
 * passes because prompts can call each other: first each file's definition is parsed so every
 * prompt can be registered as a tool, then each is compiled against the full tool set.
 * A workspace prompt replaces a built-in of the same id. Two workspace files with one id (the
 * folders of a multi-root workspace, or an extra prompt folder) never replace each other silently:
 * the first folder's file wins, and the other is not loaded and carries an error naming both.
 */
export class PromptCatalog {
  private constructor(
    private readonly byId: Map<string, CatalogEntry>,
    /** Workspace files whose id an earlier file already has: listed with that error, never run. */
    private readonly duplicates: CatalogEntry[],
    readonly registry: ToolRegistry,
    /** What seed-002 chains may read with `${env.X}`; files compiled later get the same. */
    readonly dialect?: DialectOptions,
  ) {}

  static async load(folders: PromptFolder[], baseRegistry: ToolRegistry, dialect?: DialectOptions): Promise<PromptCatalog> {
    const registry = baseRegistry.clone();
    const byId = new Map<string, CatalogEntry>();
    const parsed = new Map<string, ParsedActionPrompt>();
    /** Files the schema rejected: the rest of each is still checked once every tool is known. */
    const rejected = new Map<string, unknown>();
    const duplicates: CatalogEntry[] = [];
    for (const folder of folders) {
      for (const file of await findPromptFiles(folder.dir)) {
        const id = promptIdOf(file);
        const entry: CatalogEntry = { id, file, source: folder.source, title: id, description: '', diagnostics: [] };
        const earlier = byId.get(id);
        if (earlier && earlier.source !== 'builtin' && folder.source !== 'builtin') {
          if (earlier.file === file) continue; // one folder named twice (e.g. a prompt folder that is .codewiki/prompts)
          entry.diagnostics = [duplicateId(id, file, earlier.file)];
          duplicates.push(entry);
          continue;
        }
        try {
          const result = parseActionPromptDefinition(await readFile(file, 'utf8'), file, { dialect });
          Object.assign(entry, { title: result.definition.title, description: result.definition.description ?? '' });
          parsed.set(id, result);
        } catch (error) {
          entry.diagnostics = diagnosticsOf(error, file);
          parsed.delete(id);
          rejected.set(id, error);
        }
        byId.set(id, entry);
      }
    }
    for (const [id, result] of parsed) {
      if (!baseRegistry.has(id)) registerActionPromptTool(registry, id, result.definition);
    }
    for (const [id, result] of parsed) {
      const entry = byId.get(id)!;
      try {
        entry.prompt = compileParsedActionPrompt(result, { file: entry.file, id, source: entry.source, tools: registry });
        entry.diagnostics = entry.prompt.warnings;
      } catch (error) {
        entry.diagnostics = diagnosticsOf(error, entry.file);
      }
    }
    for (const [id, error] of rejected) {
      const entry = byId.get(id);
      if (entry?.file && !parsed.has(id))
        entry.diagnostics = diagnosticsOf(withSalvagedProblems(error, { file: entry.file, id, source: entry.source, tools: registry }), entry.file);
    }
    rejectCycles(byId);
    return new PromptCatalog(byId, duplicates, registry, dialect);
  }

  /** One entry per id: the prompt a run of that id uses (or why it cannot run). */
  entries(): CatalogEntry[] {
    return [...this.byId.values()].sort((a, b) => a.source.localeCompare(b.source) || a.id.localeCompare(b.id));
  }

  /** Workspace files not loaded because an earlier folder has a prompt of their id; each carries that error. */
  duplicateEntries(): CatalogEntry[] {
    return [...this.duplicates];
  }

  entry(id: string): CatalogEntry | undefined {
    return this.byId.get(id);
  }

  /** For nested chains: only valid prompts. */
  get(id: string): CompiledActionPrompt | undefined {
    return this.byId.get(id)?.prompt;
  }

  /** Compiles a file outside the catalog (e.g. `codewiki run ./draft.yaml`) against the catalog's tools. */
  async compileFile(file: string): Promise<CompiledActionPrompt> {
    return this.compileText(await readFile(file, 'utf8'), file);
  }

  /** compileFile for text that is not (or not yet) on disk: the editor's unsaved buffer. */
  compileText(text: string, file: string): CompiledActionPrompt {
    const prompt = compileActionPrompt(text, { file, id: promptIdOf(file), source: 'file', tools: this.registry, dialect: this.dialect });
    const cycles = findPromptCycles(this.promptsWith(prompt)).get(prompt.id);
    if (cycles) throw new ActionPromptError([...cycles, ...prompt.warnings]);
    return prompt;
  }

  /**
   * Every problem in one file, as `codewiki validate` and the editor report them: schema errors,
   * the reference errors in the parts that passed, and nested-call cycles through the catalog's
   * prompts (the file standing in for the prompt of the same id). Warnings included.
   */
  async validateFile(file: string): Promise<Diagnostic[]> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      return [
        {
          file,
          line: 1,
          column: 1,
          field: '',
          message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          severity: 'error',
        },
      ];
    }
    return this.validateText(text, file);
  }

  /** validateFile for the editor's text (src/core/authoring), so the editor and `codewiki validate` agree. */
  validateText(text: string, file: string): Diagnostic[] {
    // The file may be named from the current directory (codewiki validate): compared as absolute paths, reported as named.
    const duplicate = (this.duplicates.find((entry) => resolve(entry.file) === resolve(file))?.diagnostics ?? []).map((d) => ({ ...d, file }));
    try {
      return [...duplicate, ...this.compileText(text, file).warnings];
    } catch (error) {
      return [...duplicate, ...diagnosticsOf(error, file)];
    }
  }

  /** The catalog's valid prompts with `prompt` in place of the one with its id. */
  private promptsWith(prompt: CompiledActionPrompt): Map<string, CompiledActionPrompt> {
    const prompts = new Map<string, CompiledActionPrompt>();
    for (const [id, entry] of this.byId) if (entry.prompt) prompts.set(id, entry.prompt);
    // A prompt on a cycle is not in the catalog as valid; the file being checked may be one of them.
    for (const [id, entry] of this.byId) if (!entry.prompt && entry.compiledOnCycle) prompts.set(id, entry.compiledOnCycle);
    prompts.set(prompt.id, prompt);
    return prompts;
  }
}

export function promptIdOf(file: string): string {
  return basename(file, extname(file));
}

export function isPromptFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

async function findPromptFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir, { recursive: true });
  } catch {
    return []; // a folder that does not exist simply has no prompts
  }
  return names
    .filter(isPromptFile)
    .map((name) => join(dir, name))
    .sort();
}

/** A prompt on a cycle of nested calls is listed with the error and is not runnable. */
function rejectCycles(byId: Map<string, CatalogEntry>): void {
  const valid = new Map([...byId].flatMap(([id, entry]) => (entry.prompt ? [[id, entry.prompt] as const] : [])));
  for (const [id, errors] of findPromptCycles(valid)) {
    const entry = byId.get(id)!;
    entry.compiledOnCycle = entry.prompt;
    entry.prompt = undefined;
    entry.diagnostics = [...errors, ...entry.diagnostics];
  }
}

function duplicateId(id: string, file: string, earlier: string): Diagnostic {
  return {
    file,
    line: 1,
    column: 1,
    field: '',
    message: `the action prompt id "${id}" is already defined in ${earlier}, which is the one that runs; this file (${file}) is not loaded: rename one of them`,
    severity: 'error',
  };
}

function diagnosticsOf(error: unknown, file: string): Diagnostic[] {
  if (error instanceof ActionPromptError) return error.diagnostics;
  return [{ file, line: 1, column: 1, field: '', message: (error as Error).message, severity: 'error' }];
}
