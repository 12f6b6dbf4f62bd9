import { HumanMessage } from '@langchain/core/messages';

/** "Where is…", "Which file/function/class…": the user wants a place in the code, and an answer without one misses. */
const WHERE_QUESTION = /^\s*(?:where\b|which\s+(?:file|files|function|class|method|module|code|part|type|struct|package)\b|in\s+which\s+file\b)/i;
/** A path as answers cite them: with a folder (`src/a.ts`, `crates/ignore`) or a file name with an extension. */
const PATH_LIKE = /(?:[\w.-]+\/)+[\w.-]+|[\w-]+\.[A-Za-z][A-Za-z0-9]{0,7}\b/;

export function asksWhere(question: string): boolean {
  return WHERE_QUESTION.test(question);
}

/**
 * Whether an answer names a place in the workspace. The 1.5B default, shown the index's candidates, sometimes
 * answers a where-is question in words alone ("The gitignore module provides a way to match globs", "in the
 * `requests.utils` module"): right or not, the user cannot open it. Any path-like word counts, so the check
 * never fires on an answer that names a file, even one the index did not show.
 */
export function namesAPlace(answer: string): boolean {
  return PATH_LIKE.test(answer);
}

/** Asked once per run: the next answer replaces the one without a place. */
export function placeRequest(): HumanMessage {
  return new HumanMessage('Name the file that answers the question, as path:line, in one sentence.');
}
