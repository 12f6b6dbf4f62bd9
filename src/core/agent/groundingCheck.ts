import { HumanMessage } from '@langchain/core/messages';

/** `name.ext (123 bytes)`: a file line of the workspace layout in the system prompt (systemPrompt.ts). */
const LAYOUT_FILE = /^\s*([^\s/][^\n/]*?) \([\d.]+ (?:bytes|KB|MB)\)$/gm;
/** A file name, possibly with a path before it, as answers cite them: `src/frequency.ts`, frequency.ts:12 (from where a name starts, as PATH_LIKE). */
const NAMED_FILE = /(?<![\w.-])[\w.-]+\.[A-Za-z0-9]{1,8}\b/g;

/**
 * Workspace files an answer names although no tool has shown them to the model in this run. Small models
 * answer "where is X computed?" from the layout's file names alone (measured: qwen2.5-coder 1.5B named
 * `frequency.ts`, or invented a function, without a single call), which reads as knowledge it does not
 * have. Only names the layout lists count, so prose with dotted words never triggers the check.
 */
export function unreadFilesNamed(answer: string, layout: string | undefined, shown: readonly string[] = []): string[] {
  if (!layout) return [];
  // Files the index showed with the question (signatures and lines) were seen: naming them is not a guess.
  const seen = new Set(shown.map((path) => path.split('/').pop()!));
  const listed = new Set([...layout.matchAll(LAYOUT_FILE)].map((match) => match[1]!).filter((name) => !seen.has(name)));
  const named = [...answer.matchAll(NAMED_FILE)].map((match) => match[0].split('/').pop()!);
  return [...new Set(named.filter((name) => listed.has(name)))];
}

/**
 * Asked once per run, when the model's first answer names files it never opened: the answer it then gives
 * replaces that draft (Cline asks the same of a reply that used no tool).
 */
export function groundingRequest(files: string[], textProtocol: boolean): HumanMessage {
  const how = textProtocol ? 'write a tool request block' : 'call a tool';
  return new HumanMessage(
    `Before you answer: you named ${files.join(', ')} without opening ${files.length === 1 ? 'it' : 'them'} in this conversation. ` +
      `Check with the tools first (${how}: read_file or search_text), then answer from what they return, citing path:line.`,
  );
}
