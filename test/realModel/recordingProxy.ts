import { EventEmitter } from 'node:events';
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request through the proxy and what llama-server sent back, byte for byte. */
export interface Exchange {
  index: number;
  method: string;
  path: string;
  /** The request body, parsed; undefined when it is not JSON. */
  request: ChatRequest | undefined;
  status?: number;
  /** The response body as received so far (SSE text for a streamed answer). */
  response: string;
  /** The response ended (completely, or cut off by either side). */
  ended: boolean;
}

interface ChatRequest {
  stream?: boolean;
  tools?: Array<{ type: string; function: { name: string } }>;
  messages?: unknown[];
}

/** What one chat completion said on the wire: its text and the calls llama-server's parser sent as `tool_calls`. */
export interface WireCompletion {
  content: string;
  nativeToolCalls: Array<{ id?: string; name?: string; arguments: string }>;
  finishReason?: string;
}

/**
 * A pass-through HTTP proxy in front of llama-server that records every request and response: a test can then
 * assert what went over the wire (which form a tool call took, what was offered), not only what CodeWiki made of it.
 * Events: `request` (an Exchange arrived), `chunk` (bytes of its response), `end` (its response ended).
 */
export class RecordingProxy extends EventEmitter {
  readonly exchanges: Exchange[] = [];
  private readonly server = createServer((req, res) => this.relay(req, res));
  private url: string | undefined;

  constructor(private readonly target: string) {
    super();
  }

  /** Resolves with the base URL (ending with /v1) to give the client instead of llama-server's. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  get baseUrl(): string {
    if (!this.url) throw new Error('RecordingProxy: call start() first');
    return this.url;
  }

  chatExchanges(): Exchange[] {
    return this.exchanges.filter((e) => e.method === 'POST' && e.path === '/v1/chat/completions');
  }

  /** Chat completions whose response has not ended. */
  inFlight(): Exchange[] {
    return this.chatExchanges().filter((e) => !e.ended);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(req: IncomingMessage, res: ServerResponse): void {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(body);
      const exchange: Exchange = {
        index: this.exchanges.length,
        method: req.method ?? 'GET',
        path: new URL(req.url ?? '/', 'http://x').pathname,
        request: parseJson(raw.toString('utf8')) as ChatRequest | undefined,
        response: '',
        ended: false,
      };
      this.exchanges.push(exchange);
      this.emit('request', exchange);
      const end = () => {
        if (exchange.ended) return;
        exchange.ended = true;
        this.emit('end', exchange);
      };
      const target = new URL(req.url ?? '/', this.target);
      const upstream = forward(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        exchange.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => {
          exchange.response += chunk.toString('utf8');
          this.emit('chunk', exchange);
          res.write(chunk);
        });
        answer.on('end', () => {
          res.end();
          end();
        });
        answer.on('error', () => res.destroy());
      });
      upstream.on('error', () => {
        res.destroy();
        end();
      });
      // The client gave up (Stop, a timeout): llama-server must see the same, so the request is cut there too.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
        end();
      });
      upstream.end(raw);
    });
  }
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const proxy = new RecordingProxy(target);
  await proxy.start();
  return proxy;
}

/** A chat completion as the wire carried it, streamed (SSE) or not. */
export function wireCompletion(exchange: Exchange): WireCompletion {
  const result: WireCompletion = { content: '', nativeToolCalls: [] };
  const take = (choice: { delta?: Delta; message?: Delta; finish_reason?: string | null } | undefined) => {
    const part = choice?.delta ?? choice?.message;
    if (typeof part?.content === 'string') result.content += part.content;
    for (const call of part?.tool_calls ?? []) {
      const index = call.index ?? result.nativeToolCalls.length;
      const known = (result.nativeToolCalls[index] ??= { arguments: '' });
      if (call.id) known.id = call.id;
      if (call.function?.name) known.name = call.function.name;
      known.arguments += call.function?.arguments ?? '';
    }
    if (choice?.finish_reason) result.finishReason = choice.finish_reason;
  };
  if (exchange.request?.stream) {
    for (const event of exchange.response.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      if (!data || data === '[DONE]') continue;
      take((parseJson(data) as { choices?: Parameters<typeof take>[0][] } | undefined)?.choices?.[0]);
    }
  } else {
    take((parseJson(exchange.response) as { choices?: Parameters<typeof take>[0][] } | undefined)?.choices?.[0]);
  }
  return result;
}

interface Delta {
  content?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
