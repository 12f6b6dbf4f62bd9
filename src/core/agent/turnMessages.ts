import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { estimateTokens } from '../llm/tokenEstimate';
import { classifyLlmError } from '../llm/classifyLlmError';
import { textOf } from '../llm/streamChat';
import type { TokenUsage } from '../llm/usage';
import type { StreamedTurn } from './streamTurn';
import type { ParsedToolCall } from './toolCallParsing';

/** Helpers for one model turn of the agent loop: replaying it, recognising repeats, estimating it. */

/** The assistant turn as the next request must replay it: its text and every call with its id. */
export function assistantMessage(text: string, calls: ParsedToolCall[]): AIMessage {
  // Unusable arguments are replayed as {} (a server may reject malformed JSON in history); the
  // tool message tells the model what was wrong with what it actually sent.
  return new AIMessage({
    content: text,
    tool_calls: calls.map((call) => ({ id: call.id, name: call.name, args: call.args ?? {}, type: 'tool_call' as const })),
  });
}

export function callKey(call: ParsedToolCall): string {
  return `${call.name}\u0000${call.args ? canonicalJson(call.args) : call.rawArgs}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** llama-server started without `--jinja` answers a request with `tools` by HTTP 500 with this message. */
const TOOLS_NEED_JINJA = /tools param requires --jinja/i;

/**
 * 400 or 422 to a request carrying `tools`, when it is not a context overflow: the server does not do
 * tool calls. Also llama-server's 500 "tools param requires --jinja flag" (a chat template without tools).
 */
export function rejectsTools(error: unknown): boolean {
  const failure = classifyLlmError(error);
  if (failure.kind !== 'http' || failure.contextOverflow) return false;
  return failure.status === 400 || failure.status === 422 || (failure.status === 500 && TOOLS_NEED_JINJA.test(failure.serverMessage ?? ''));
}

export function estimateTurn(messages: BaseMessage[], turn: StreamedTurn): TokenUsage {
  let input = 0;
  for (const message of messages) input += estimateTokens(textOf(message.content));
  const output = estimateTokens(turn.text) + estimateTokens((turn.message?.tool_call_chunks ?? []).map((c) => c.args ?? '').join(''));
  return { input, output, total: input + output };
}
