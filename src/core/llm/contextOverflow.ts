/** A request the server refused because the prompt does not fit its context window. */
export interface ContextOverflow {
  promptTokens?: number;
  contextSize?: number;
}

const OVERFLOW_TEXT =
  /exceeds? the available context size|context[_ ]length[_ ]exceeded|maximum context length|context window|prompt is too long|too many tokens/i;

/**
 * Recognises the shapes servers use: llama-server's `exceed_context_size_error` with `n_prompt_tokens` and
 * `n_ctx` ("request (4476 tokens) exceeds the available context size (4096 tokens)"), OpenAI's and vLLM's
 * "maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens", and older
 * llama.cpp builds that say only "the request exceeds the available context size".
 */
export function contextOverflowOf(body: unknown, message: string | undefined): ContextOverflow | undefined {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const text = [typeof fields.message === 'string' ? fields.message : '', typeof body === 'string' ? body : '', message ?? ''].join('\n');
  const typed = fields.type === 'exceed_context_size_error' || fields.code === 'context_length_exceeded';
  if (!typed && !OVERFLOW_TEXT.test(text)) return undefined;
  return {
    promptTokens:
      count(fields.n_prompt_tokens) ??
      count(/request \((\d+) tokens\)/i.exec(text)?.[1]) ??
      count(/resulted in (\d+) tokens/i.exec(text)?.[1]) ??
      count(/requested (\d+) tokens/i.exec(text)?.[1]),
    contextSize: count(fields.n_ctx) ?? count(/context size \((\d+) tokens\)/i.exec(text)?.[1]) ?? count(/maximum context length is (\d+)/i.exec(text)?.[1]),
  };
}

function count(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The user's words: both sizes when the server gave them, and what to do. Never retried: the same prompt fails again. */
export function describeContextOverflow(overflow: ContextOverflow): string {
  const prompt = overflow.promptTokens ? `the prompt (${overflow.promptTokens.toLocaleString('en-US')} tokens)` : 'the prompt';
  const context = overflow.contextSize ? `the server's context size (${overflow.contextSize.toLocaleString('en-US')} tokens)` : "the server's context size";
  return `${prompt} does not fit ${context}; use fewer or smaller files, lower codewiki.maxInputTokens, or start the server with a larger context (llama-server: -c)`;
}
