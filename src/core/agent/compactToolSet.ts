import type { RegisteredTool } from '../tools/toolMetadata';
import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import { isSmallModel, type ModelAdapterSettings } from './modelAdapters';

/**
 * What a small local model is offered. Every tool definition is prompt the model pays for on a cold cache (about
 * 30 tokens a second for the 1.5B default on 2 cores), and a small model chooses worse among many tools. Left out:
 * tools whose work another one does here (repo_map: the map is in the system prompt; get_file_summaries and
 * get_files_content_by_list: read_file and search_code), and sub-agents, whose own prompt would be computed cold
 * inside the turn (measured: 1,438 tokens, 92 s, for the investigator's first use).
 */
export const COMPACT_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'list_files',
  'search_text',
  'find_symbol',
  'search_code',
  'edit_file',
  'write_file',
  'run_command',
]);

/**
 * `codewiki.agent.modelAdapters.toolSet`: `auto` gives the compact set to small models that start from the code
 * index, the full set otherwise. Without the index a small model has to explore, and with the compact set the
 * 1.5B default stopped exploring: asked "Where is the word frequency computed?" without the index it described a
 * search instead of making one, where the full set got a real call (real-model tier, agentToolCall.test.ts).
 */
export function usesCompactTools(modelName: string, setting: ModelAdapterSettings['toolSet'] = 'auto', startsFromIndex = true): boolean {
  return setting === 'compact' || (setting === 'auto' && startsFromIndex && isSmallModel(modelName));
}

/** Whether an agent starts from a working code index (not switched off, not `--no-index`). */
export function startsFromIndex(index: CodeIndex | undefined): boolean {
  return index !== undefined && index.status().state !== 'disabled';
}

/** Why a tool is not in the compact set, for the model that names it anyway; undefined when it is. */
export function compactExclusion(entry: RegisteredTool): string | undefined {
  return COMPACT_TOOLS.has(entry.metadata.name)
    ? undefined
    : 'small models get a compact tool set (codewiki.agent.modelAdapters: "toolSet": "full" offers every tool)';
}

/** A description cut to its first sentence, and the same for every description inside a JSON Schema. */
export function firstSentence(text: string): string {
  for (const end of text.matchAll(/[.!?](?=\s+[A-Z(`"'])/g)) {
    // Not after an abbreviation: cut at "e.g. `src/**`", a description ended in a dangling "e.g." and lost its example.
    if (!ABBREVIATION.test(text.slice(0, end.index + 1))) return text.slice(0, end.index + 1);
  }
  return text;
}

const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|cf)\.$/i;

export function compactSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compactSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Under `properties` the keys are parameter names, not schema keywords: one named "description" stays a schema.
    if (key === 'properties' && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, compactSchema(property)]));
    else out[key] = key === 'description' && typeof value === 'string' ? firstSentence(value) : compactSchema(value);
  }
  return out;
}
