import { z } from 'zod';
import { codewikiTool } from '../../tools/codewikiTool';
import type { ToolRegistry } from '../../tools/toolRegistry';
import type { SelfRenderedValue } from '../../values/toolValues';
import type { CodeIndex, CodeSearchHit, SymbolMatch } from '../codeIndexTypes';
import { waitForIndex } from '../waitForIndex';
import { partialNote, renderCodeSearch, renderSymbolMatches } from './renderIndexResults';

const SEARCH_MAX_TOKENS = 1_200;

export const INDEX_TOOL_NAMES = ['find_symbol', 'search_code', 'repo_map'] as const;
const MAP_DEFAULT_TOKENS = 1_024;

export interface SymbolMatchesValue extends SelfRenderedValue {
  kind: 'symbol-matches';
  matches: SymbolMatch[];
}

export interface CodeSearchValue extends SelfRenderedValue {
  kind: 'code-search';
  hits: CodeSearchHit[];
  /** The ranked files, best first: what a later step (read files, select files) takes. */
  paths: string[];
}

const findSymbolSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(200)
    .describe('A function, class, method, type or constant name, e.g. "parseConfig" (partial or misspelt names find the closest)'),
  limit: z.number().int().min(1).max(50).optional().describe('At most this many definitions (default 10)'),
});

const searchCodeSchema = z.object({
  query: z.string().min(1).max(500).describe('What the code does, in words or names, e.g. "retry on rate limit"'),
  path: z.string().optional().describe('Only files under this folder'),
  limit: z.number().int().min(1).max(20).optional().describe('At most this many files (default 8)'),
});

const repoMapSchema = z.object({
  focus: z.string().max(500).optional().describe('A question or names: the map favours what they are about'),
  max_tokens: z.number().int().min(128).max(4_096).optional().describe(`Size of the map (default ${MAP_DEFAULT_TOKENS} tokens)`),
});

/**
 * The index's tools, for the agent and action prompts alike: small schemas and capped results, so a
 * small model can use them and a long answer never floods its context.
 */
export function registerIndexTools(registry: ToolRegistry, index: CodeIndex): void {
  const common = { kind: 'read', category: 'search', agentCallable: true, timeoutMs: 60_000 } as const;
  registry
    .register(
      codewikiTool(
        async (input, config): Promise<SymbolMatchesValue> => {
          await waitForIndex(index, { signal: config?.signal });
          const matches = await index.findSymbol(input.name, { limit: input.limit });
          return { kind: 'symbol-matches', matches, text: renderSymbolMatches(input.name, matches) + partialNote(index.status()) };
        },
        {
          name: 'find_symbol',
          description:
            'Find where a function, class, method, type or constant is defined, by name (exact first, then partial and near spellings). Returns path:line, kind and signature.',
          schema: findSymbolSchema,
        },
      ),
      { ...common, displayName: 'Find symbol' },
    )
    .register(
      codewikiTool(
        async (input, config): Promise<CodeSearchValue> => {
          await waitForIndex(index, { signal: config?.signal });
          const hits = await index.searchCode(input.query, { limit: input.limit ?? 8, pathPrefix: input.path });
          return {
            kind: 'code-search',
            hits,
            paths: hits.map((hit) => hit.path),
            text: renderCodeSearch(input.query, hits, SEARCH_MAX_TOKENS) + partialNote(index.status()),
          };
        },
        {
          name: 'search_code',
          description:
            'Ranked search of the code index (paths, definition names, doc comments, imports): the files most likely to hold what the query describes, best first, with their best lines.',
          schema: searchCodeSchema,
        },
      ),
      { ...common, displayName: 'Search code' },
    )
    .register(
      codewikiTool(
        async (input, config): Promise<SelfRenderedValue> => {
          await waitForIndex(index, { signal: config?.signal });
          const map = await index.repoMap({ budgetTokens: input.max_tokens ?? MAP_DEFAULT_TOKENS, focus: input.focus });
          return { kind: 'repo-map', text: (map.text || 'The index has no definitions yet.') + partialNote(index.status()) };
        },
        {
          name: 'repo_map',
          description: "A map of the workspace's most important files and their definitions (line: signature), ranked by how the code uses them.",
          schema: repoMapSchema,
        },
      ),
      { ...common, displayName: 'Repository map' },
    );
}
