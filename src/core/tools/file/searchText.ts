import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import type { SearchMatch, SearchResults } from '../toolValues';
import { forEachBounded } from '../../workspace/boundedConcurrency';
import { decodeText } from '../../workspace/readTextFile';
import { walkWorkspace } from '../../workspace/walkWorkspace';
import type { Workspace } from '../../workspace/workspace';
import { compileGlob } from './globMatcher';
import { entriesUnder } from './walkFilters';

export const DEFAULT_MAX_RESULTS = 200;
export const HARD_MAX_RESULTS = 2000;
/** Very long lines (minified code, data) are shown as a window around the match. */
const MAX_LINE_CHARS = 300;

const schema = z.object({
  query: z.string().min(1).describe('Text to find (a JavaScript regular expression when regex is true)'),
  path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: everything)'),
  regex: z.boolean().optional().describe('Treat query as a regular expression (default: literal text)'),
  case_sensitive: z.boolean().optional().describe('Match case exactly (default: false)'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "**/*.ts"'),
  max_results: z.number().int().min(1).optional().describe(`Stop after this many matching lines (default ${DEFAULT_MAX_RESULTS}, max ${HARD_MAX_RESULTS})`),
});

export type SearchTextInput = z.infer<typeof schema>;

export function createSearchTextTool(workspace: Workspace) {
  return tool(async (input, config) => searchText(workspace, input, config?.signal), {
    name: 'search_text',
    description:
      'Search file contents for literal text (or a regular expression) and return matching lines as ' +
      'path:line:column. Case-insensitive unless case_sensitive is true.',
    schema,
  });
}

async function searchText(workspace: Workspace, input: SearchTextInput, signal?: AbortSignal): Promise<SearchResults> {
  const pattern = compileQuery(input);
  const start = await workspace.resolve(input.path ?? '.');
  const fs = workspace.createFs();
  const walk = await walkWorkspace(workspace, start, { signal, fs });
  const files = entriesUnder(start, walk.entries, input.glob ? compileGlob(input.glob) : undefined);
  const maxResults = Math.min(input.max_results ?? DEFAULT_MAX_RESULTS, HARD_MAX_RESULTS);

  // Matches are taken file by file in path order from the finished prefix, so which matches
  // survive the cap never depends on which read finished first.
  const perFile: Array<SearchMatch[] | undefined> = new Array(files.length);
  const matches: SearchMatch[] = [];
  let taken = 0;
  let filesSearched = 0;
  let truncated = walk.truncated;
  const takeFinished = (): void => {
    while (taken < perFile.length && perFile[taken] !== undefined) {
      for (const match of perFile[taken++] as SearchMatch[]) {
        if (matches.length < maxResults) matches.push(match);
        else truncated = true;
      }
    }
  };

  await forEachBounded(
    files,
    workspace.limits.ioConcurrency,
    async (entry, index) => {
      await fs.pause();
      let found: SearchMatch[] = [];
      try {
        const prefix = await fs.readFilePrefix(entry.absolute, workspace.limits.maxFileBytes);
        if (!prefix.binary) {
          filesSearched++;
          if (prefix.truncated) truncated = true; // only the first maxFileBytes were searched
          found = matchLines(workspace.displayPath(entry), decodeText(prefix.bytes, prefix.truncated), pattern);
        }
      } catch {
        // Vanished or unreadable since the walk: nothing to report from it.
      }
      perFile[index] = found;
      takeFinished();
    },
    { signal, shouldStop: () => matches.length >= maxResults && truncated },
  );
  if (taken < files.length) truncated = true;
  return { kind: 'search-results', query: input.query, matches, filesSearched, truncated };
}

/** Literal queries are escaped; a bad regular expression becomes an error the model can fix. */
function compileQuery(input: SearchTextInput): RegExp {
  const flags = input.case_sensitive ? 'm' : 'im';
  if (!input.regex) return new RegExp(input.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  try {
    return new RegExp(input.query, flags);
  } catch (error) {
    throw new Error(`Invalid regular expression ${JSON.stringify(input.query)}: ${(error as Error).message}`);
  }
}

function matchLines(path: string, text: string, pattern: RegExp): SearchMatch[] {
  // One test over the whole file first: most files do not match, and that is far cheaper than line by line.
  if (!pattern.test(text)) return [];
  const found: SearchMatch[] = [];
  let lineNumber = 0;
  for (let lineStart = 0; lineStart < text.length || lineNumber === 0; ) {
    lineNumber++;
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const match = pattern.exec(line);
    if (match) found.push({ path, line: lineNumber, column: match.index + 1, text: lineAround(line, match.index) });
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return found;
}

function lineAround(line: string, index: number): string {
  if (line.length <= MAX_LINE_CHARS) return line.trim();
  const from = Math.max(0, index - 100);
  const to = Math.min(line.length, from + MAX_LINE_CHARS);
  return `${from > 0 ? '…' : ''}${line.slice(from, to).trim()}${to < line.length ? '…' : ''}`;
}
