import { codewikiTool } from '../codewikiTool';
import { z } from 'zod';
import type { FileSummaries, FileSummary } from '../../values/toolValues';
import { mapFilePrefixes } from '../../workspace/readPrefixes';
import { countLines, decodeText, type FilePrefix } from '../../workspace/readTextFile';
import { resolveWalkStarts, walkStarts } from '../../workspace/walkFolders';
import type { WalkEntry } from '../../workspace/walkWorkspace';
import type { Workspace } from '../../workspace/workspace';
import { compileGlob } from './globMatcher';
import { languageFromPath } from './languages';
import { buildOutline } from './outline';
import { entriesUnder } from './walkFilters';

const DEFAULT_MAX_FILES = 300;
const HARD_MAX_FILES = 50_000;

/**
 * Only this much of each file is read: enough for the doc comment and most declarations, and it
 * keeps a 20,000-file pass close to the cost of merely listing the files. Line counts of longer
 * files are extrapolated from this prefix (and flagged `linesEstimated`) instead of reading
 * them to the end.
 */
const SUMMARY_PREFIX_BYTES = 32 * 1024;

/**
 * The outline is first built from this much of the prefix; the whole prefix is decoded only when
 * the outline is not yet full. Decoding every byte of 20,000 files was the pass's largest
 * allocation (and garbage-collection) cost.
 */
const QUICK_OUTLINE_BYTES = 4 * 1024;

/** Rough per-file overhead of the rendered header, counted against the per-call budget. */
const HEADER_ALLOWANCE = 64;

const schema = z.object({
  path: z.string().describe('Folder (or single file) to summarise, relative to the workspace root; "." for the whole workspace (every folder)'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "**/*.ts" or "*.py, *.md"'),
  max_files: z.number().int().min(1).max(HARD_MAX_FILES).optional().describe(`At most this many files (default ${DEFAULT_MAX_FILES}, max ${HARD_MAX_FILES})`),
});

export function createGetFileSummariesTool(workspace: Workspace) {
  return codewikiTool(async (input, config) => summariseFiles(workspace, input, config?.signal), {
    name: 'get_file_summaries',
    description:
      'Outline every text file under a folder: path, size, line count, language, and a short summary ' +
      '(leading doc comment and top-level declarations). Use it to get an overview before reading files.',
    schema,
  });
}

async function summariseFiles(workspace: Workspace, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<FileSummaries> {
  const starts = await resolveWalkStarts(workspace, input.path);
  const fs = workspace.createFs();
  const walk = await walkStarts(workspace, starts, { signal, fs });
  const candidates = entriesUnder(workspace, starts, walk.entries, input.glob ? compileGlob(input.glob) : undefined);
  const maxFiles = input.max_files ?? DEFAULT_MAX_FILES;

  const files: FileSummary[] = [];
  let skipped = 0;
  let budget = workspace.limits.maxTotalBytes;
  let full = false;
  const accept = (summary: FileSummary | null): void => {
    if (summary === null) skipped++;
    else if (!full) {
      const cost = summary.summary.length + summary.path.length + HEADER_ALLOWANCE;
      if (files.length >= maxFiles || cost > budget) full = true;
      else {
        files.push(summary);
        budget -= cost;
      }
    }
  };
  await mapFilePrefixes(
    fs,
    candidates.map((entry) => entry.absolute),
    (prefix, index) => (prefix ? summarise(workspace, candidates[index] as WalkEntry, prefix) : null),
    accept,
    {
      maxBytes: SUMMARY_PREFIX_BYTES,
      concurrency: workspace.limits.ioConcurrency,
      signal,
      shouldStop: () => full || files.length >= maxFiles,
    },
  );
  const totalFiles = candidates.length - skipped;
  return {
    kind: 'file-summaries',
    root: workspace.displayPath(starts[0]!),
    files,
    totalFiles,
    truncated: files.length < totalFiles || walk.truncated,
  };
}

/** null for a binary file. The prefix's buffer is reused, so everything is derived here. */
function summarise(workspace: Workspace, entry: WalkEntry, prefix: FilePrefix): FileSummary | null {
  if (prefix.binary) return null;
  const path = workspace.displayPath(entry);
  const language = languageFromPath(path);
  const prefixLines = countLines(prefix.bytes);
  const summary: FileSummary = {
    path,
    size: prefix.size,
    lines: prefix.truncated ? Math.round((prefix.size * prefixLines) / prefix.bytes.length) : prefixLines,
    language,
    summary: outlinePrefix(prefix.bytes, prefix.truncated, language),
  };
  if (prefix.truncated) summary.linesEstimated = true;
  return summary;
}

function outlinePrefix(bytes: Buffer, truncated: boolean, language: string): string {
  if (bytes.length > QUICK_OUTLINE_BYTES) {
    const quick = buildOutline(decodeText(bytes.subarray(0, QUICK_OUTLINE_BYTES), true), language);
    if (quick.complete) return quick.summary;
  }
  return buildOutline(decodeText(bytes, truncated), language).summary;
}
