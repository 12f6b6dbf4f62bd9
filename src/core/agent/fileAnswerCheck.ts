import { HumanMessage } from '@langchain/core/messages';
import type { AnswerCut } from './streamTurn';

/** "Where is…", "Which file/function/class…": the user wants a place in the code, and an answer without one misses. */
const WHERE_QUESTION = /^\s*(?:where\b|which\s+(?:file|files|function|class|method|module|code|part|type|struct|package)\b|in\s+which\s+file\b)/i;
/**
 * A path as answers cite them: with a folder (`src/a.ts`, `/src/a.ts`, `crates/ignore`) or a file name with an
 * extension (`vite.config.ts`). It starts where a word does: tried at every character of a long run (a model
 * repeating `-` or `src/`), it took seconds.
 */
export const PATH_LIKE = /(?<![\w./-])\/?(?:(?:[\w.-]+\/)+[\w.-]+|[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z0-9]{0,7}\b)/;

export function asksWhere(question: string): boolean {
  return WHERE_QUESTION.test(question);
}

/**
 * Whether an answer has a word shaped like a path. The 1.5B default, shown the index's candidates, sometimes
 * answers a where-is question in words alone ("The gitignore module provides a way to match globs"): right or not,
 * the user cannot open it. Any path-like word counts here (`requests.utils` too; "e.g." and "i.e." do not); with a
 * workspace, the loop then asks whether one is a file or folder of it (answerPlaces.ts `namesWorkspacePlace`).
 */
export function namesAPlace(answer: string): boolean {
  return PATH_LIKE.test(withoutAbbreviations(answer));
}

/** The text without "e.g." and "i.e.": "(e.g., JSON or XML)" names no file `e.g`. */
export function withoutAbbreviations(text: string): string {
  return text.replace(/\b(?:e\.g|i\.e)\./gi, '');
}

/** Where a copy's second entry begins (the copy ends before it), and the start of one, still to be told apart. */
const SECOND_ENTRY = /\r?\n2\. /g;
const SECOND_ENTRY_START = /(?:\r?\n(?:2\.?)?|\r)$/;

/**
 * Watches answers for a copy of the index's list of matches instead of an answer from it. Shown the matches, the 1.5B
 * default now and then writes the whole list as its answer (4 of the evaluation's 55 questions on 2026-12-06, 21–34 s
 * of writing each).
 */
export interface ListCopyWatch {
  /** Whether the answer holds the list's first entry line as the model was shown it: number, path and description. */
  copied(answer: string): boolean;
  /**
   * What becomes of an answer that copies the list, as it streams: it ends before its second entry, which would be
   * more of the copy, and the start of one (`\n2`) is not shown until what follows says whether it is one. Undefined
   * while the answer is no copy.
   */
  cut(answer: string): AnswerCut | undefined;
}

/** A watch for copies of `list` (`1. path — what it is` …), built once per list; undefined for a list without entries. */
export function listCopyWatch(list: string): ListCopyWatch | undefined {
  const entry = /^1\. .+$/m.exec(list)?.[0].trim();
  if (!entry) return undefined;
  // The whole line, at a line start, blanks after it aside: `1. src/a.ts` is not in `1. src/a.tsx` nor in
  // `1. src/a.ts:3 defines x`.
  const line = new RegExp(`^[ \\t]*${entry.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*(?=\\r|\\n|$)`, 'm');
  const firstEntryEnd = (answer: string) => {
    const found = line.exec(answer);
    return found ? found.index + found[0].length : undefined;
  };
  return {
    copied: (answer) => firstEntryEnd(answer) !== undefined,
    cut(answer) {
      const first = firstEntryEnd(answer);
      if (first === undefined) return undefined;
      SECOND_ENTRY.lastIndex = first;
      const second = SECOND_ENTRY.exec(answer);
      if (second) return { end: second.index };
      const start = SECOND_ENTRY_START.exec(answer);
      return start ? { hold: start[0].length } : undefined;
    },
  };
}

/** Asked once per run: the next answer replaces the one without a place (`note` says what was wrong with it, when that is known). */
export function placeRequest(note = ''): HumanMessage {
  return new HumanMessage(`${note ? `${note} ` : ''}Name the file that answers the question, as path:line, in one sentence.`);
}
