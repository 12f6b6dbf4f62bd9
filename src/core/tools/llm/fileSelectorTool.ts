import { z } from 'zod';
import { parsePathList } from '../file/parsePathList';
import { onlyPathEndingWith } from '../../workspace/pathEnds';
import { isFileSummaries } from '../../values/toolValues';
import { renderValue } from '../../values/renderValue';
import { defineLlmTool } from './defineLlmTool';

const DEFAULT_MAX_FILES = 12;

const schema = z.object({
  file_summaries: z
    .union([
      z.string(),
      z.object({ kind: z.literal('file-summaries'), files: z.array(z.object({ path: z.string() }).loose()) }).loose(),
      z.object({ kind: z.literal('code-search'), text: z.string(), hits: z.array(z.object({ path: z.string() }).loose()) }).loose(),
    ])
    .describe('The output of get_file_summaries or search_code, or the same as text.'),
  task_description: z.string().describe('What the selected files should help with.'),
  max_files: z.number().int().min(1).max(100).optional().describe(`At most this many files (default ${DEFAULT_MAX_FILES}).`),
});
type Input = z.infer<typeof schema>;

/**
 * Seed 001's smart file selection: the tool model reads path + summary for every file and
 * names the few that matter for the task, so the final prompt carries those files in full
 * instead of everything. The answer is parsed forgivingly and checked against the summaries:
 * a path the model invented never reaches a file tool.
 */
export function createFileSelectorLlmTool() {
  return defineLlmTool({
    name: 'file_selector_llm_tool',
    description: 'Selects the files most relevant to a task from file summaries, using the tool model. Returns a list of paths.',
    schema,
    messages: (input) => [
      {
        role: 'system',
        content:
          'You are a code analysis assistant. From the file summaries the user gives, select the files that are most relevant to the task. ' +
          `Answer with only the file paths exactly as written in the summaries, separated by commas, at most ${input.max_files ?? DEFAULT_MAX_FILES}. No explanations.`,
      },
      { role: 'human', content: `Task: ${input.task_description}\n\nFiles and summaries:\n${summariesText(input)}\n\nThe most relevant file paths:` },
    ],
    async run({ input, prompt, ask, warn }) {
      const answer = await ask(prompt);
      const known = knownPaths(input);
      const maxFiles = input.max_files ?? DEFAULT_MAX_FILES;
      const named = parsePathList(answer);
      const selected = matchKnownPaths(named, known).slice(0, maxFiles);
      const invented = named.filter((path) => !matchKnownPaths([path], known).length);
      if (selected.length) {
        if (invented.length) warn(`file_selector_llm_tool: dropped ${invented.length} path(s) that are not among the summarised files: ${listPaths(invented)}`);
        return selected;
      }
      // Small models answer with prose or invent paths. An empty selection would send the final prompt no code at
      // all and still look like success, so fall back visibly to the summaries' first files, in their stable order.
      const fallback = firstFiles(known, maxFiles);
      warn(
        `file_selector_llm_tool: the model named none of the ${known.length} summarised files` +
          `${invented.length ? ` (it named ${listPaths(invented)})` : ` (answer: ${JSON.stringify(answer.slice(0, 120))})`}; ` +
          `using the first ${fallback.length} instead: ${listPaths(fallback)}`,
      );
      return fallback;
    },
    dryRunResult(input, runtime) {
      // The same stand-in, in the same order, as a real run whose model names no file: a dry run previews what could really happen.
      const known = knownPaths(input);
      const paths = firstFiles(known, input.max_files ?? DEFAULT_MAX_FILES);
      const cut =
        paths.length < known.length ? ` of the ${known.length} summarised (the rest were cut: max_files is ${input.max_files ?? DEFAULT_MAX_FILES})` : '';
      runtime.warn(`dry run: file selection not performed; passing on the first ${paths.length} files${cut}: ${listPaths(paths)}`);
      return paths;
    },
  });
}

/** The summaries' first files, in the summaries' own (stable, path) order. */
function firstFiles(known: string[], maxFiles: number): string[] {
  return known.slice(0, maxFiles);
}

function listPaths(paths: string[]): string {
  const shown = paths.slice(0, 8).join(', ');
  return paths.length > 8 ? `${shown} and ${paths.length - 8} more` : shown;
}

function summariesText(input: Input): string {
  return typeof input.file_summaries === 'string' ? input.file_summaries : renderValue(input.file_summaries);
}

function knownPaths(input: Input): string[] {
  const summaries = input.file_summaries;
  if (typeof summaries !== 'string') return summaries.kind === 'code-search' ? summaries.hits.map((hit) => hit.path) : summaries.files.map((f) => f.path);
  if (isFileSummaries(summaries)) return summaries.files.map((f) => f.path);
  // Rendered by get_file_summaries: each file opens with a "===== path (language, …) =====" header.
  const headers = [...summaries.matchAll(/^===== (.+?) \([^()\n]*\) =====$/gm)].map((m) => m[1] as string);
  if (headers.length) return [...new Set(headers)];
  // Other text: a path is the first token of a line that is not indented.
  return [
    ...new Set(
      summaries
        .split('\n')
        .filter((l) => /^\S/.test(l))
        .map((l) => l.split(/\s+/)[0].replace(/^#+/, ''))
        .filter(Boolean),
    ),
  ];
}

/** Exact match after normalising `./` and backslashes; otherwise a unique suffix match ("a.ts" for "src/a.ts"). */
function matchKnownPaths(candidates: string[], known: string[]): string[] {
  const knownSet = new Set(known);
  const result: string[] = [];
  for (const raw of candidates) {
    const path = raw.replace(/\\/g, '/').replace(/^\.\//, '');
    const match = knownSet.has(path) ? path : onlyPathEndingWith(known, path);
    if (match && !result.includes(match)) result.push(match);
  }
  return result;
}
