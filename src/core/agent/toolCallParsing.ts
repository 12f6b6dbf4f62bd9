import type { AIMessageChunk } from '@langchain/core/messages';

/** One tool call as the model sent it, its arguments parsed strictly. */
export interface ParsedToolCall {
  id: string;
  name: string;
  /** The arguments text exactly as streamed. */
  rawArgs: string;
  /** Set when `rawArgs` is a JSON object (an empty string counts as `{}`). */
  args?: Record<string, unknown>;
  /** Set instead of `args`: why the arguments cannot be used, in words for the model. */
  argsError?: string;
}

const MAX_QUOTED_ARGS = 300;

/**
 * Reads tool calls from the merged stream chunks with a strict JSON parse. LangChain's own
 * `tool_calls` on a chunk come from a partial-JSON parser that "repairs" truncated arguments
 * (`{"path": "b` becomes `{path: "b"}`), which would run a write with half its content; here a
 * truncated or malformed call is an error the model gets back instead.
 */
export function parseToolCalls(message: AIMessageChunk | undefined, iteration: number): ParsedToolCall[] {
  const chunks = message?.tool_call_chunks ?? [];
  const calls: ParsedToolCall[] = [];
  chunks.forEach((chunk, position) => {
    const rawArgs = chunk.args ?? '';
    const call: ParsedToolCall = {
      // Some local servers send no id; the follow-up ToolMessage still needs one that matches.
      id: chunk.id || `call_${iteration}_${position}`,
      name: chunk.name ?? '',
      rawArgs,
    };
    Object.assign(call, parseArguments(rawArgs));
    calls.push(call);
  });
  return calls;
}

export function parseArguments(rawArgs: string): { args: Record<string, unknown> } | { argsError: string } {
  if (rawArgs.trim() === '') return { args: {} };
  let value: unknown;
  try {
    value = JSON.parse(rawArgs);
  } catch (error) {
    return {
      argsError: `The arguments are not valid JSON (${(error as Error).message}). You sent: ${quoteArgs(rawArgs)}. Send one JSON object matching the tool's parameters.`,
    };
  }
  if (value === null) return { argsError: "The arguments were null. Send a JSON object matching the tool's parameters ({} when it needs none)." };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { argsError: `The arguments must be a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}. You sent: ${quoteArgs(rawArgs)}.` };
  }
  return { args: value as Record<string, unknown> };
}

function quoteArgs(rawArgs: string): string {
  return rawArgs.length <= MAX_QUOTED_ARGS ? rawArgs : `${rawArgs.slice(0, MAX_QUOTED_ARGS)}… (${rawArgs.length} chars)`;
}

/** One line for progress output: the most telling argument values, shortened. */
export function summarizeArgs(args: unknown, maxChars = 100): string {
  if (typeof args !== 'object' || args === null) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    if (value === undefined) continue;
    const text =
      typeof value === 'string'
        ? value.length > 60
          ? `${JSON.stringify(value.slice(0, 60))}…`
          : JSON.stringify(value)
        : (JSON.stringify(value) ?? String(value));
    parts.push(`${key}=${text.length > 60 ? `${text.slice(0, 60)}…` : text}`);
  }
  const line = parts.join(' ').replace(/\s+/g, ' ');
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
