import { codewikiTool } from '../codewikiTool';
import { z } from 'zod';
import type { SearchMatch, SearchResults } from '../../values/toolValues';
import { mapFilePrefixes } from '../../workspace/readPrefixes';
import { decodeText } from '../../workspace/readTextFile';
import { resolveWalkStarts, walkStarts } from '../../workspace/walkFolders';
import type { WalkEntry } from '../../workspace/walkWorkspace';
import type { Workspace } from '../../workspace/workspace';
import { compileGlob } from './globMatcher';
import { entriesUnder } from './walkFilters';

const DEFAULT_MAX_RESULTS = 200;
const HARD_MAX_RESULTS = 2000;
/** Very long lines (minified code, data) are shown as a window around the match. */
const MAX_LINE_CHARS = 300;

const schema = z.object({
  query: z.string().min(1).describe('Text to find (a JavaScript regular expression when regex is true)'),
  path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: every folder of the workspace)'),
  regex: z.boolean().optional().describe('Treat query as a regular expression (default: literal text)'),
  case_sensitive: z.boolean().optional().describe('Match case exactly (default: false)'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "**/*.ts"'),
  max_results: z.number().int().min(1).optional().describe(`Stop after this many matching lines (default ${DEFAULT_MAX_RESULTS}, max ${HARD_MAX_RESULTS})`),
});

export type SearchTextInput = z.infer<typeof schema>;

export function createSearchTextTool(workspace: Workspace) {
  return codewikiTool(async (input, config) => searchText(workspace, input, config?.signal), {
    name: 'search_text',
    description:
      'Search file contents for literal text (or a regular expression) and return matching lines as ' +
      'path:line:column. Case-insensitive unless case_sensitive is true.',
    schema,
  });
}

async function searchText(workspace: Workspace, input: SearchTextInput, signal?: AbortSignal): Promise<SearchResults> {
  const pattern = compileQuery(input);
  const starts = await resolveWalkStarts(workspace, input.path);
  const fs = workspace.createFs();
  const walk = await walkStarts(workspace, starts, { signal, fs });
  const files = entriesUnder(workspace, starts, walk.entries, input.glob ? compileGlob(input.glob) : undefined);
  const maxResults = Math.min(input.max_results ?? DEFAULT_MAX_RESULTS, HARD_MAX_RESULTS);

  const matches: SearchMatch[] = [];
  let filesSearched = 0;
  let filesAccepted = 0;
  let truncated = walk.truncated;
  await mapFilePrefixes(
    fs,
    files.map((entry) => entry.absolute),
    (prefix, index): SearchMatch[] => {
      if (!prefix || prefix.binary) return [];
      filesSearched++;
      if (prefix.truncated) truncated = true; // only the first maxFileBytes were searched
      const path = workspace.displayPath(files[index] as WalkEntry);
      return matchLines(path, decodeText(prefix.bytes, prefix.truncated), pattern);
    },
    (found) => {
      filesAccepted++;
      for (const match of found) {
        if (matches.length < maxResults) matches.push(match);
        else truncated = true;
      }
    },
    {
      maxBytes: workspace.limits.maxFileBytes,
      concurrency: workspace.limits.ioConcurrency,
      signal,
      // Keep going until one match past the cap proves there are more.
      shouldStop: () => matches.length >= maxResults && truncated,
    },
  );
  if (filesAccepted < files.length && matches.length >= maxResults) truncated = true;
  return { kind: 'search-results', query: input.query, matches, filesSearched, truncated };
}

/** Literal queries are escaped; a bad regular expression becomes an error the model can fix. */
function compileQuery(input: SearchTextInput): RegExp {
  const flags = input.case_sensitive ? 'm' : 'im';
  if (!input.regex) return new RegExp(input.query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  try {
    return new RegExp(input.query, flags);
  } catch (error) {
    throw new Error(`Invalid regular expression ${JSON.stringify(input.query)}: ${(error as Error).message}`, { cause: error });
  }
}

function matchLines(path: string, text: string, pattern: RegExp): SearchMatch[] {
  // One test over the whole file first: most files do not match, and that is far cheaper than line by line.
  if (!pattern.test(text)) return [];
  const found: SearchMatch[] = [];
  let lineNumber = 0;
  for (let lineStart = 0; lineStart < text.length || lineNumber === 0;) {
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
