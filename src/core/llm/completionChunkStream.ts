/**
 * The JSON events of a streamed chat completion, read from its SSE body: what the OpenAI SDK's `Stream` yields
 * for `/chat/completions`, decoded with a line splitter and `JSON.parse` instead of the SDK's byte buffers, line
 * decoder and three nested async generators, which cost a streamed token more CPU than everything of ours
 * (`npm run bench`, streaming overhead). ChatOpenAI still builds the request and sends it through the SDK
 * (status errors, headers); its `.stream()` turns these events into LangChain's chunks, and `streamChat` reads
 * a plain answer's text straight from them.
 *
 * The SDK's semantics are kept, and `test/llm/completionChunkStream.test.ts` checks them against the SDK itself:
 * - SSE framing: `\n`, `\r\n` or `\r` line ends; `data:` lines of one event joined with `\n`; `:` comments and
 *   other fields ignored; an event is dispatched by a blank line, so one cut off at the end of the body is dropped;
 * - `[DONE]` ends the answer (the rest of the body is read and ignored);
 * - an event whose JSON has an `error` field (an SSE `error` event, or a plain one) is thrown as `StreamedError`;
 * - JSON that does not parse is thrown (a SyntaxError); an AbortError from the body ends the stream quietly (the
 *   caller asked for it), while our own timeouts and broken connections, which are not AbortErrors, are thrown;
 * - stopping early (a `break`, an error) cancels the body, which closes the connection.
 */
export async function* completionChunkStream(response: Response): AsyncGenerator<unknown, void, undefined> {
  const body = response.body;
  if (!body) throw new Error('The server answered a streamed request with no body.');
  const events = new SseEvents();
  try {
    // Leaving this loop early (a `break` above us, an error event) returns the body's iterator, which cancels it.
    for await (const bytes of body) for (const event of events.push(bytes)) yield parseEvent(event, response);
    for (const event of events.end()) yield parseEvent(event, response);
  } catch (error) {
    if (isAbortError(error)) return;
    throw error;
  }
}

/** An error event in a streamed answer, as the SDK's APIError without a status has it: the server's message and payload. */
export class StreamedError extends Error {
  constructor(
    /** The server's `error` value. */
    readonly error: unknown,
    readonly headers: Headers,
  ) {
    super(messageOf(error));
    this.name = 'StreamedError';
  }
}

function parseEvent({ event, data }: SseEvent, response: Response): unknown {
  const parsed: unknown = JSON.parse(data);
  // The Assistants API's events, which the SDK passes on with their name; chat completions never send them.
  if (event?.startsWith('thread.')) return { event, data: parsed };
  const error = (parsed as { error?: unknown } | null)?.error;
  if (error) throw new StreamedError(error, response.headers);
  return parsed;
}

/** What the SDK's APIError says for an error without a status. */
function messageOf(error: unknown): string {
  const message = (error as { message?: unknown }).message;
  if (message) return typeof message === 'string' ? message : JSON.stringify(message);
  return JSON.stringify(error);
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

interface SseEvent {
  event: string | null;
  data: string;
}

/** SSE framing: bytes in, complete events out. */
class SseEvents {
  /** `[DONE]` arrived: what follows is read (so the body completes) but not reported. */
  private done = false;
  private readonly decoder = new TextDecoder();
  private buffered = '';
  private event: string | null = null;
  private data: string[] = [];

  push(bytes: Uint8Array): SseEvent[] {
    this.buffered += this.decoder.decode(bytes, { stream: true });
    return this.lines(false);
  }

  /** The end of the body: a last unterminated line still counts, but an event without its blank line does not. */
  end(): SseEvent[] {
    this.buffered += this.decoder.decode();
    return this.lines(true);
  }

  private lines(atEnd: boolean): SseEvent[] {
    const dispatched: SseEvent[] = [];
    let start = 0;
    for (;;) {
      const lineEnd = nextLineEnd(this.buffered, start);
      if (lineEnd < 0) break;
      // A `\r` last in the buffer may be the first half of `\r\n`: wait for the next bytes, unless there are none.
      if (this.buffered.charCodeAt(lineEnd) === 0x0d && lineEnd === this.buffered.length - 1 && !atEnd) break;
      const event = this.line(this.buffered.slice(start, lineEnd));
      if (event) dispatched.push(event);
      start = lineEnd + (this.buffered.charCodeAt(lineEnd) === 0x0d && this.buffered.charCodeAt(lineEnd + 1) === 0x0a ? 2 : 1);
    }
    this.buffered = this.buffered.slice(start);
    if (atEnd && this.buffered) {
      this.line(this.buffered);
      this.buffered = '';
    }
    return dispatched;
  }

  /** One line; returns the event that a blank line completes. */
  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (!this.event && this.data.length === 0) return undefined;
      const event = { event: this.event, data: this.data.join('\n') };
      this.event = null;
      this.data = [];
      if (this.done) return undefined;
      if (event.data.startsWith('[DONE]')) {
        this.done = true;
        return undefined;
      }
      return event;
    }
    if (line.charCodeAt(0) === 0x3a) return undefined; // a `:` comment, e.g. a keep-alive
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return undefined;
  }
}

function nextLineEnd(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  const carriage = text.indexOf('\r', from);
  if (carriage < 0) return newline;
  if (newline < 0) return carriage;
  return Math.min(newline, carriage);
}
