import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ActionPromptError, type Diagnostic } from '../yaml/diagnostics';
import type { ToolRegistry } from '../tools/toolRegistry';
import { DEFAULT_YAML_LIMITS } from '../yaml/yamlLimits';
import { checkAgentDefinition, parseAgentDefinition, type ParsedAgentDefinition } from './compileAgentDefinition';
import type { AgentSource, CompiledAgentDefinition } from './compiledAgentDefinition';
import { registerSubagentTool } from './subagentTool';

export interface AgentFolder {
  dir: string;
  source: AgentSource;
}

export interface AgentCatalogEntry {
  /** The definition's name; the file path when the file is too broken to say. */
  name: string;
  file: string;
  source: AgentSource;
  /** Present when the file is valid (and so registered as a tool). */
  definition?: CompiledAgentDefinition;
  /** Without `definition`: why it is not loaded (an invalid file is listed with its errors, never hidden). With it: warnings. */
  diagnostics: Diagnostic[];
}

/** Where a workspace keeps its own agent definitions (loaded only in a trusted workspace, like its prompts). */
export const WORKSPACE_AGENTS_DIR = join('.codewiki', 'agents');

/**
 * Every agent definition: built-in first, then the workspace's. A later folder replaces a
 * definition of the same name (a workspace can replace a built-in, as with action prompts); two
 * files of one folder may not share a name. Each valid definition is registered in `registry`
 * as a sub-agent tool.
 */
export class AgentCatalog {
  private constructor(private readonly loaded: AgentCatalogEntry[]) {}

  static empty(): AgentCatalog {
    return new AgentCatalog([]);
  }

  /** Two passes, like the prompt catalog: every file is parsed first, so an allow-list naming another definition is caught whatever the file order. */
  static async load(folders: AgentFolder[], registry: ToolRegistry): Promise<AgentCatalog> {
    const parsed: Array<{ entry: AgentCatalogEntry; result: ParsedAgentDefinition }> = [];
    const broken: AgentCatalogEntry[] = [];
    for (const folder of folders) {
      for (const file of await findDefinitionFiles(folder.dir)) {
        const entry: AgentCatalogEntry = { name: file, file, source: folder.source, diagnostics: [] };
        try {
          const result = parseAgentDefinition(await readDefinition(file), file);
          entry.name = result.definition.name;
          parsed.push({ entry, result });
        } catch (error) {
          entry.diagnostics = diagnosticsOf(error, file);
          broken.push(entry);
        }
      }
    }
    const agentNames = new Set(parsed.map(({ entry }) => entry.name));
    const byName = new Map<string, AgentCatalogEntry>();
    const firstFile = new Map<string, string>();
    for (const { entry, result } of parsed) {
      try {
        const definition = checkAgentDefinition(result, { file: entry.file, source: entry.source, tools: registry, agentNames });
        const key = `${entry.source}\u0000${definition.name}`;
        const earlier = firstFile.get(key);
        if (earlier) throw duplicateName(definition, earlier);
        firstFile.set(key, entry.file);
        Object.assign(entry, { definition, diagnostics: definition.warnings });
        byName.set(definition.name, entry); // a later folder replaces an earlier one
      } catch (error) {
        entry.diagnostics = diagnosticsOf(error, entry.file);
        broken.push(entry);
      }
    }
    for (const entry of byName.values()) registerSubagentTool(registry, entry.definition!);
    return new AgentCatalog([...byName.values(), ...broken]);
  }

  entries(): AgentCatalogEntry[] {
    return [...this.loaded].sort((a, b) => a.source.localeCompare(b.source) || a.name.localeCompare(b.name));
  }

  /** Valid definitions only. */
  definitions(): CompiledAgentDefinition[] {
    return this.entries().flatMap((entry) => (entry.definition ? [entry.definition] : []));
  }

  get(name: string): CompiledAgentDefinition | undefined {
    return this.loaded.find((entry) => entry.definition?.name === name)?.definition;
  }
}

function isAgentDefinitionFile(file: string): boolean {
  return /\.ya?ml$/i.test(file);
}

async function findDefinitionFiles(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir, { recursive: true });
  } catch {
    return []; // a folder that does not exist simply has no definitions
  }
  return names
    .filter(isAgentDefinitionFile)
    .map((name) => join(dir, name))
    .sort();
}

/** Checks the size before reading, so a huge file is refused without being loaded into memory. */
async function readDefinition(file: string): Promise<string> {
  const { size } = await stat(file);
  const limit = DEFAULT_YAML_LIMITS.maxBytes;
  if (size > limit)
    throw new ActionPromptError([{ file, line: 1, column: 1, field: '', message: `file is ${size} bytes; the limit is ${limit}`, severity: 'error' }]);
  return readFile(file, 'utf8');
}

function duplicateName(definition: CompiledAgentDefinition, earlier: string): ActionPromptError {
  const at = definition.positions.locate(['name']);
  return new ActionPromptError([
    { file: definition.file, ...at, field: 'name', message: `the agent "${definition.name}" is already defined in ${earlier}`, severity: 'error' },
  ]);
}

function diagnosticsOf(error: unknown, file: string): Diagnostic[] {
  if (error instanceof ActionPromptError) return error.diagnostics;
  return [{ file, line: 1, column: 1, field: '', message: (error as Error)?.message ?? String(error), severity: 'error' }];
}
