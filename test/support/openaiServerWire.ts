import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What a scripted OpenAI-protocol server says back (a Turn), and how a Turn becomes chat-completions wire
 * objects: SSE chunks for `stream: true`, one `chat.completion` otherwise. Used by openaiServer.ts.
 */

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** An object is JSON-encoded; a string goes out verbatim (use it to script malformed JSON). */
  arguments: string | Record<string, unknown>;
}

export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  /** Sent as `prompt_tokens_details.cached_tokens`, as llama-server and OpenAI report a prompt-cache hit. */
  cached_tokens?: number;
}

/** llama-server's `timings` object, sent on the usage event of a streamed answer (and on every event, asked `timings_per_token`). */
export interface ScriptedTimings {
  cache_n: number;
  prompt_n: number;
  prompt_ms: number;
  predicted_n: number;
  predicted_ms: number;
}

export interface Turn {
  /** Streamed split into word-sized chunks; use `chunks` to choose the split. */
  text?: string;
  chunks?: string[];
  /** Thinking sent before the content as `delta.reasoning_content`, as llama-server and DeepSeek send it apart. */
  reasoningChunks?: string[];
  toolCalls?: ScriptedToolCall[];
  /** Defaults to a deterministic estimate from the prompt and answer lengths. */
  usage?: ScriptedUsage;
  /** llama-server's timings, sent beside the usage of a streamed answer. */
  timings?: ScriptedTimings;
  /** Defaults to `tool_calls` when there are tool calls, else `stop`. */
  finishReason?: string;
  /** An HTTP error: status, JSON (or raw string) body and headers such as Retry-After. */
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Wait before sending headers. */
  delayMs?: number;
  /**
   * Never answer at all, or stop after `stallAfterChunks` SSE events (default 2: the role chunk and one more).
   * A non-streamed answer stalls (or, with `resetAfterChunks`, breaks) after the first half of its JSON.
   */
  stall?: 'before-headers' | 'mid-stream';
  stallAfterChunks?: number;
  /** Send this many SSE events, then reset the TCP connection. */
  resetAfterChunks?: number;
  /** Pause between SSE events. */
  chunkDelayMs?: number;
  /** Leave `role` off the first delta, as llama-server does when the first token is an incomplete UTF-8 sequence. */
  omitRole?: boolean;
  /**
   * A streamed answer that fails part-way, as servers report an error after the headers went out: the role
   * and content chunks, then this payload as an SSE `error` event, with no finish chunk and no `[DONE]`.
   */
  streamError?: unknown;
}

/** The chat-completions request as the client sent it (the fields tests look at, the rest kept loosely). */
export interface ChatRequestBody {
  model?: string;
  messages?: ChatRequestMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  temperature?: number;
  max_tokens?: number;
  [field: string]: unknown;
}

export interface ChatRequestMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  [field: string]: unknown;
}

/** All message text joined, so a responder can route on what the prompt says. */
export function promptTextOf(body: ChatRequestBody | undefined): string {
  return (body?.messages ?? []).map((message) => contentText(message.content)).join('\n');
}

export function contentText(content: ChatRequestMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => part.text ?? '').join('');
  return '';
}

interface WireContext {
  id: string;
  model: string;
  promptText: string;
  includeUsage: boolean;
  /** Asked `timings_per_token`: like llama-server, every content event carries the turn's timings so far. */
  timingsPerToken?: boolean;
}

/** The SSE events of a streamed answer, in protocol order (without the final `[DONE]`). */
export function streamEvents(turn: Turn, context: WireContext): object[] {
  const base = { id: context.id, object: 'chat.completion.chunk', created: nowSeconds(), model: context.model };
  const event = (delta: object, finishReason: string | null = null): object => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const events: object[] = turn.omitRole ? [] : [event({ role: 'assistant', content: '' })];
  for (const thought of turn.reasoningChunks ?? []) events.push(event({ reasoning_content: thought }));
  contentChunks(turn).forEach((chunk, i) => {
    const soFar = turn.timings && context.timingsPerToken ? { timings: { ...turn.timings, predicted_n: i + 1 } } : {};
    events.push({ ...event({ content: chunk }), ...soFar });
  });
  toolCallsOf(turn).forEach((call, index) => {
    events.push(event({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const fragment of splitEvery(call.arguments, 8)) {
      events.push(event({ tool_calls: [{ index, function: { arguments: fragment } }] }));
    }
  });
  events.push(event({}, finishReasonOf(turn)));
  if (context.includeUsage) events.push({ ...base, choices: [], usage: usageOf(turn, context.promptText), ...(turn.timings ? { timings: turn.timings } : {}) });
  return events;
}

/** The SSE frames of a streamed answer: its events and `[DONE]`, or, with `streamError`, the content so far and the error event. */
export function sseFrames(turn: Turn, context: WireContext): string[] {
  const data = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  if (turn.streamError === undefined) return [...streamEvents(turn, context).map(data), 'data: [DONE]\n\n'];
  const content = streamEvents({ chunks: contentChunks(turn), omitRole: turn.omitRole }, { ...context, includeUsage: false }).slice(0, -1); // no finish chunk
  return [...content.map(data), `event: error\n${data(turn.streamError)}`];
}

/** The one `chat.completion` object of a non-streamed answer. */
export function completionObject(turn: Turn, context: WireContext): object {
  const calls = toolCallsOf(turn);
  const text = contentChunks(turn).join('');
  return {
    id: context.id,
    object: 'chat.completion',
    created: nowSeconds(),
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text || (calls.length ? null : ''),
          ...(calls.length ? { tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })) } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn),
      },
    ],
    usage: usageOf(turn, context.promptText),
  };
}

export function modelList(models: string[]): object {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'openai-test-server' })) };
}

export function errorBody(status: number, message: string): object {
  return { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } };
}

function contentChunks(turn: Turn): string[] {
  return turn.chunks ?? (turn.text ? (turn.text.match(/\s*\S+\s*/g) ?? [turn.text]) : []);
}

function toolCallsOf(turn: Turn): Array<{ id: string; name: string; arguments: string }> {
  return (turn.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index}_${call.name}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function finishReasonOf(turn: Turn): string {
  return turn.finishReason ?? (turn.toolCalls?.length ? 'tool_calls' : 'stop');
}

function usageOf(turn: Turn, promptText: string): object {
  const prompt = turn.usage?.prompt_tokens ?? Math.ceil(promptText.length / 4);
  const answerLength = contentChunks(turn).join('').length + toolCallsOf(turn).reduce((n, c) => n + c.arguments.length, 0);
  const completion = turn.usage?.completion_tokens ?? Math.ceil(answerLength / 4);
  const cached = turn.usage?.cached_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: turn.usage?.total_tokens ?? prompt + completion,
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

function splitEvery(text: string, size: number): string[] {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
