import { HumanMessage } from '@langchain/core/messages';

/**
 * A turn that says nothing: no text, or only an empty tool wrapper. Qwen2.5-Coder 1.5B writes a bare
 * `<tools></tools>` now and then instead of an answer or a call (measured: 2 of 3 tries of one where-is
 * question on requests, with the right candidates in the prompt). Shown as is, it reads as a broken answer.
 */
export function isEmptyAnswer(text: string): boolean {
  return text.replace(/<\/?tools>|<tool_call>\s*<\/tool_call>/g, '').trim() === '';
}

/** Asked once per run after an empty turn; the model's next turn answers instead. */
export function answerRequest(textProtocol: boolean): HumanMessage {
  const call = textProtocol ? 'write a tool request block' : 'call a tool';
  return new HumanMessage(
    `You wrote no answer. Answer the question in a sentence or two, naming the file and line (path:line), or ${call} if you need to look first.`,
  );
}

/**
 * An answer the model wrapped as if it were a tool result (`<tool_response>…</tool_response>`, the tags Qwen's chat
 * template puts around results; measured on typeorm: "<tool_response> The file src/query-builder/… </tool_response>"):
 * shown without the tags. An unclosed wrapper loses its opening tag.
 */
export function withoutEchoedWrapper(text: string): string {
  const match = /^\s*<tool_response>([\s\S]*?)(?:<\/tool_response>\s*)?$/.exec(text);
  return match ? match[1]!.trim() : text;
}
