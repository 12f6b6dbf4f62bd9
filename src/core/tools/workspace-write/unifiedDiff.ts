import { structuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * A unified diff (the format `git diff` and `patch` read) of two texts, for approval previews, computed
 * by jsdiff (the `diff` package). Lines are compared with their line ending, so a change that only adds or
 * drops the final newline shows up, marked `\ No newline at end of file` as git does.
 */

export interface DiffResult {
  diff: string;
  added: number;
  removed: number;
}

export interface DiffLabels {
  /** `a/<path>`, or `/dev/null` for a new file. */
  old: string;
  new: string;
}

/** Beyond this many differing lines the exact shortest edit is not worth the time: old out, new in. */
const MAX_EDIT_LENGTH = 2000;
const CONTEXT_LINES = 3;

export function unifiedDiff(oldText: string, newText: string, labels: DiffLabels, context = CONTEXT_LINES): DiffResult {
  if (oldText === newText) return { diff: '', added: 0, removed: 0 };
  const hunks = structuredPatch(labels.old, labels.new, oldText, newText, undefined, undefined, { context, maxEditLength: MAX_EDIT_LENGTH })?.hunks ?? [
    replaceAll(oldText, newText),
  ];
  let added = 0;
  let removed = 0;
  const out = [`--- ${labels.old}`, `+++ ${labels.new}`];
  for (const hunk of hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`, ...hunk.lines);
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { diff: `${out.join('\n')}\n`, added, removed };
}

/** git's hunk ranges: the count is left out when it is 1, and an empty side starts at the line before. */
function range(start: number, count: number): string {
  return `${count === 0 && start > 0 ? start - 1 : start}${count === 1 ? '' : `,${count}`}`;
}

/** The whole file out and in, for texts too different to be worth the exact edit script. */
function replaceAll(oldText: string, newText: string): StructuredPatchHunk {
  const side = (text: string, mark: string) =>
    (text.match(/[^\n]*\n|[^\n]+$/g) ?? []).flatMap((line) =>
      line.endsWith('\n') ? [`${mark}${line.slice(0, -1)}`] : [`${mark}${line}`, '\\ No newline at end of file'],
    );
  const oldLines = side(oldText, '-');
  const newLines = side(newText, '+');
  const count = (lines: string[]) => lines.filter((l) => !l.startsWith('\\')).length;
  return { oldStart: 1, oldLines: count(oldLines), newStart: 1, newLines: count(newLines), lines: [...oldLines, ...newLines] };
}
