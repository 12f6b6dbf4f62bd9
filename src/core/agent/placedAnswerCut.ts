import type { AnswerCut } from './streamTurn';
import { PATH_LIKE } from './fileAnswerCheck';
import { REQUEST_START } from './textProtocol/toolProtocol';

/**
 * Where a small model's where-is answer has said what was asked: at the end of the sentence, or the line, in which it
 * first names one of the files the index showed it. The issue asks for "a sentence and a link, not a plan of
 * steps"; the 1.5B default, told to "name that one file and line and say in a sentence what is there", often goes on
 * for 20–50 more tokens (2–6 s at 8–9 generated tokens a second on 2 cores): a second sentence on what the method
 * does, or the list's next lines copied. The first file it names, which is the answer, is the same either way.
 *
 * What comes after the sentence is held back until its first character says what it is: more prose ends the answer
 * there (`end`); a tool call or code (`<tool_call>`, `<read_file …/>`, the text protocol's request block, a JSON
 * object, a code fence) means the answer goes on as written, and so does an answer that was not prose before it.
 * Undefined while the answer names no listed file or its sentence goes on.
 */
export function placedAnswerCut(answer: string, files: readonly string[]): AnswerCut | undefined {
  const named = firstNamed(answer, files);
  if (named === undefined) return undefined;
  const end = sentenceEnd(answer, named);
  if (end === undefined || notProse(answer.slice(0, end))) return undefined;
  const next = /\S/.exec(answer.slice(end));
  if (!next) return { hold: answer.length - end };
  return CALL_OR_CODE.test(answer.slice(end + next.index)) ? undefined : { end };
}

/** Text that is a tool call or code, not an answer in words. */
function notProse(text: string): boolean {
  return /```|<tool_call|\{\s*"/.test(text) || text.includes(REQUEST_START);
}
/** What a tool call written as text (an element, a JSON object or array), or a code block, starts with. */
const CALL_OR_CODE = /^(?:[<{]|\[\s*[{"]|```)/;
const PATHS = new RegExp(PATH_LIKE.source, 'g');

/**
 * Where the answer's first mention of a listed file ends (after its `:line`), or undefined. A mention is a whole path
 * as answers cite them (PATH_LIKE: not `xsrc/a.ts`, `src/a.tsx` or `lib/src/a.ts`), `./` before it and a sentence's
 * dots after it aside.
 */
function firstNamed(answer: string, files: readonly string[]): number | undefined {
  for (const match of answer.matchAll(PATHS)) {
    const cited = match[0].replace(/\.+$/, ''); // a sentence's dots after the path
    if (!files.includes(cited.replace(/^\.\//, ''))) continue;
    const end = match.index + cited.length;
    return end + (/^:\d+(?:-\d+)?/.exec(answer.slice(end))?.[0].length ?? 0);
  }
  return undefined;
}

/**
 * The end of the sentence a mention is in: a line break, or `.`, `!` or `?` before a blank. Not a line that ends in a
 * colon ("… defined in `src/a.ts:5`:" introduces what follows), an abbreviation ("e.g.", "etc."), a list item's
 * number ("1. "), nor inside `inline code` (`a ? b : c`). A dot with no blank after it yet may begin `.java`.
 */
function sentenceEnd(answer: string, from: number): number | undefined {
  // The mark may close an emphasis, a parenthesis or a quotation first: "**It is in src/a.ts.**", "(src/a.ts.)".
  const pattern = /\r?\n|[.!?][*_)"'\]]*(?=\s)/g;
  pattern.lastIndex = from;
  for (let found = pattern.exec(answer); found; found = pattern.exec(answer)) {
    if (found[0].includes('\n')) {
      if (/:\s*$/.test(answer.slice(from, found.index))) continue;
      return found.index;
    }
    const line = answer.slice(answer.lastIndexOf('\n', found.index) + 1, found.index);
    if (/\b(?:e\.g|i\.e|etc|vs|cf)$/i.test(line) || /^\s*\d+$/.test(line) || (line.match(/`/g) ?? []).length % 2 === 1) continue;
    return found.index + found[0].length;
  }
  return undefined;
}
