import { createServer, STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import {
  completionObject,
  errorBody,
  modelList,
  parseJson,
  promptTextOf,
  readBody,
  sendJson,
  sseFrames,
  type ChatRequestBody,
  type ChatRequestMessage,
  type Turn,
} from './openaiServerWire';

export type { ChatRequestBody, ChatRequestMessage, ScriptedToolCall, ScriptedUsage, Turn } from './openaiServerWire';

/** One request as the server saw it. Times are `performance.now()` milliseconds (monotonic). */
export interface RecordedRequest {
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body, undefined when absent or not JSON. */
  body: ChatRequestBody | undefined;
  rawBody: string;
  /** All message text joined: what a responder routes on. */
  promptText: string;
  arrivedAt: number;
  /** The response was completely written. */
  finishedAt?: number;
  /** The HTTP status the server answered with, set when the response was completely written. */
  status?: number;
  /** The connection closed before the response was complete (the client aborted, a reset, or close()). */
  closedAt?: number;
}

/** Picks the answer from the request itself, for parallel callers whose order is not deterministic. */
export type Responder = (request: RecordedRequest) => Turn | Promise<Turn>;

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions protocol, scripted turn by turn:
 * queued turns are played in arrival order, then the responder (if any) answers. Every request is recorded.
 * close() destroys every socket, stalled ones included, so a test run always exits.
 */
export class OpenAiTestServer {
  readonly requests: RecordedRequest[] = [];
  /** How often `GET /props` was asked (it is not in `requests`). */
  propsRequests = 0;
  private readonly queue: Turn[] = [];
  private responder: Responder | undefined;
  private readonly server: Server;
  private readonly openBySocket = new Map<Socket, Set<RecordedRequest>>();
  private readonly stopping = new AbortController();
  private baseUrl: string | undefined;
  private props: object | undefined;
  /** `POST /slots/:id?action=save|restore`, kept apart from `requests` like /props; answered as llama-server with a slot save path does only after `serveSlots()`. */
  readonly slotActions: Array<{ action: string; slot: string; filename: string; afterRequests: number }> = [];
  private slots: Set<string> | undefined;

  constructor(
    script: Turn[] | Responder = [],
    private readonly models: string[] = ['test-model'],
  ) {
    if (typeof script === 'function') this.responder = script;
    else this.queue.push(...script);
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (socket) => this.track(socket));
  }

  enqueue(...turns: Turn[]): this {
    this.queue.push(...turns);
    return this;
  }

  /** Answer `GET /props` as llama-server does (e.g. `{ default_generation_settings: { n_ctx: 2048 } }`); otherwise it is a 404. */
  serveProps(props: object): this {
    this.props = props;
    return this;
  }

  /** Answer llama-server's slot save and restore (files kept in memory; restoring one never saved is a 400, as there). Implies nothing about /props. */
  serveSlots(): this {
    this.slots = new Set();
    return this;
  }

  respondWith(responder: Responder): this {
    this.responder = responder;
    return this;
  }

  /** Resolves with the base URL, which ends with `/v1`. */
  async start(): Promise<{ url: string }> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/v1`;
    return { url: this.baseUrl };
  }

  get url(): string {
    return this.baseUrl ?? fail('OpenAiTestServer: call start() first');
  }

  /** Resolves once every connection has closed, so `closedAt` is final for every request. */
  async close(): Promise<void> {
    this.stopping.abort();
    const socketsClosed = [...this.openBySocket.keys()].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    this.server.closeAllConnections();
    await Promise.all(socketsClosed);
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  lastRequest(): RecordedRequest {
    return this.requests.at(-1) ?? fail('OpenAiTestServer: no request received');
  }

  messagesOf(index: number): ChatRequestMessage[] {
    return this.requests[index]?.body?.messages ?? [];
  }

  /** Resolves once `count` requests have arrived (a test can then abort, knowing the request is in flight). */
  waitForRequests(count: number, timeoutMs = 5000): Promise<void> {
    return waitUntil(() => this.requests.length >= count, `${count} request(s)`, timeoutMs);
  }

  /**
   * Resolves once no connection is open. After the client process has exited, that means every request it sent has
   * been read and recorded: a request's bytes come before the close of its connection.
   */
  waitForAllClosed(timeoutMs = 5000): Promise<void> {
    return waitUntil(() => this.openBySocket.size === 0, 'every connection to close', timeoutMs);
  }

  /** Resolves with `closedAt` once request `index`'s connection has closed. */
  async waitForClose(index: number, timeoutMs = 5000): Promise<number> {
    await waitUntil(() => this.requests[index]?.closedAt !== undefined, `request ${index} to close`, timeoutMs);
    return this.requests[index]!.closedAt!;
  }

  private track(socket: Socket): void {
    this.openBySocket.set(socket, new Set());
    socket.on('close', () => {
      const closedAt = performance.now();
      for (const request of this.openBySocket.get(socket) ?? []) request.closedAt ??= closedAt;
      this.openBySocket.delete(socket);
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrivedAt = performance.now();
    res.on('error', () => {}); // the client may vanish mid-write; that is a scenario, not a server bug
    const rawBody = await readBody(req).catch(() => ''); // a client that aborts mid-upload is still recorded
    const body = parseJson(rawBody) as ChatRequestBody | undefined;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    // The client asks llama-server's /props for the context size before a final prompt. Counted apart, so
    // `requests` stays the conversation with the model that tests assert on.
    if (req.method === 'GET' && path === '/props') {
      this.propsRequests++;
      return this.props ? sendJson(res, 200, this.props) : sendJson(res, 404, errorBody(404, 'Unknown route GET /props'));
    }
    const slot = /^\/slots\/(\d+)$/.exec(path);
    if (req.method === 'POST' && slot) {
      const action = new URL(req.url ?? '/', 'http://localhost').searchParams.get('action') ?? '';
      const filename = String((body as { filename?: unknown } | undefined)?.filename ?? '');
      this.slotActions.push({ action, slot: slot[1]!, filename, afterRequests: this.requests.length });
      // llama-server without --slot-save-path refuses both actions.
      if (!this.slots) return sendJson(res, 501, errorBody(501, 'This server does not support slots action. Start it with `--slot-save-path`'));
      if (action === 'save') {
        this.slots.add(filename);
        return sendJson(res, 200, { id_slot: Number(slot[1]), filename, n_saved: 1_234, n_written: 35_000_000, timings: { save_ms: 12.5 } });
      }
      if (action === 'restore' && this.slots.has(filename))
        return sendJson(res, 200, { id_slot: Number(slot[1]), filename, n_restored: 1_234, n_read: 35_000_000, timings: { restore_ms: 8.5 } });
      return sendJson(res, 400, errorBody(400, 'Unable to restore slot: No available space in KV cache or invalid slot save file'));
    }
    const record: RecordedRequest = {
      index: this.requests.length,
      method: req.method ?? 'GET',
      path,
      headers: req.headers,
      body,
      rawBody,
      promptText: promptTextOf(body),
      arrivedAt,
    };
    this.requests.push(record);
    this.openBySocket.get(req.socket)?.add(record);
    res.on('finish', () => {
      record.finishedAt = performance.now();
      record.status = res.statusCode;
      this.openBySocket.get(req.socket)?.delete(record);
    });
    try {
      if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, modelList(this.models));
      if (req.method === 'POST' && path === '/v1/chat/completions') return await this.answer(record, res, await this.nextTurn(record));
      sendJson(res, 404, errorBody(404, `Unknown route ${req.method} ${path}`));
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      if (!res.headersSent) sendJson(res, 500, errorBody(500, `OpenAiTestServer: ${(error as Error).message}`));
      else res.destroy();
    }
  }

  private async nextTurn(record: RecordedRequest): Promise<Turn> {
    const queued = this.queue.shift();
    if (queued) return queued;
    if (this.responder) return this.responder(record);
    return { status: 500, body: errorBody(500, `OpenAiTestServer: no scripted turn for request #${record.index}`) };
  }

  private async answer(record: RecordedRequest, res: ServerResponse, turn: Turn): Promise<void> {
    if (turn.stall === 'before-headers') return; // hold the connection open until the client or close() ends it
    if (turn.delayMs) await delay(turn.delayMs, undefined, { signal: this.stopping.signal });
    if (turn.status !== undefined && turn.status !== 200) {
      const payload = turn.body ?? errorBody(turn.status, STATUS_CODES[turn.status] ?? 'Error');
      return sendJson(res, turn.status, payload, turn.headers);
    }
    const context = {
      id: `chatcmpl-test-${record.index}`,
      model: record.body?.model ?? this.models[0] ?? 'test-model',
      promptText: record.promptText,
      includeUsage: record.body?.stream_options?.include_usage === true,
      timingsPerToken: record.body?.timings_per_token === true,
    };
    if (record.body?.stream === true) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...turn.headers });
      return this.play(res, sseFrames(turn, context), turn);
    }
    const json = JSON.stringify(completionObject(turn, context));
    res.writeHead(200, { 'content-type': 'application/json', ...turn.headers });
    if (!turn.stall && turn.resetAfterChunks === undefined) return void res.end(json);
    // A non-streamed body can fail too: it goes out in two halves, and stalls or breaks after the first.
    const halves = [json.slice(0, json.length >> 1), json.slice(json.length >> 1)];
    const resetAfterChunks = turn.resetAfterChunks === undefined ? undefined : Math.min(turn.resetAfterChunks, 1);
    return this.play(res, halves, { ...turn, stallAfterChunks: 1, resetAfterChunks });
  }

  private async play(res: ServerResponse, frames: string[], turn: Turn): Promise<void> {
    const stallAt = turn.stall === 'mid-stream' ? (turn.stallAfterChunks ?? 2) : Infinity;
    const resetAt = turn.resetAfterChunks ?? Infinity;
    for (let sent = 0; sent < frames.length; sent++) {
      // Before any byte, a true RST. After some, a FIN that cuts the body short: an RST could make the
      // client's kernel drop bytes it has not read yet, and the test would not see the chunks it scripted.
      if (sent >= resetAt) return void (sent === 0 ? res.socket?.resetAndDestroy() : res.socket?.end());
      if (sent >= stallAt) return; // keep the connection open, silent
      if (sent > 0 && turn.chunkDelayMs) await delay(turn.chunkDelayMs, undefined, { signal: this.stopping.signal });
      if (res.destroyed) return;
      res.write(frames[sent]);
    }
    res.end();
  }
}

async function waitUntil(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`OpenAiTestServer: timed out waiting for ${what}`);
    await delay(5);
  }
}

function fail(message: string): never {
  throw new Error(message);
}
