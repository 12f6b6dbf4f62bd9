import assert from 'node:assert/strict';
import { HumanMessage } from '@langchain/core/messages';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { LlmConnectionError, LlmTimeoutError } from '../../src/core/llm/llmErrors';
import { createResilientFetch } from '../../src/core/llm/resilientFetch';
import { streamChat } from '../../src/core/llm/streamChat';

/**
 * The idle-timeout body read with `for await`, as both SSE decoders read it (ours and the SDK's): that path
 * bypasses the body's stream wrapper (idleTimeoutBody.ts), so its deadline, error translation and cancelling
 * are checked here on their own.
 */
const bytes = (text: string) => new TextEncoder().encode(text);
const BASE_URL = 'http://127.0.0.1:9/v1';
const REQUEST = { method: 'POST', body: '{}' };

async function drain(body: ReadableStream<Uint8Array>): Promise<string> {
  let text = '';
  for await (const piece of body) text += Buffer.from(piece).toString();
  return text;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('did not fail');
}

describe('idle-timeout body read with for await (how the SSE decoders read it)', () => {
  it('a stall under a transport that ignores the abort fails with a timeout, and the read under it is cancelled', async () => {
    let cancelled: unknown;
    const silent = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(bytes('a')),
      pull: () => new Promise(() => {}),
      cancel: (reason) => void (cancelled = reason),
    });
    const fetch = createResilientFetch({ timeoutMs: 100, fetch: async () => new Response(silent) });
    const error = await failureOf(drain((await fetch(`${BASE_URL}/x`, REQUEST)).body!));
    assert.ok(error instanceof LlmTimeoutError, String(error));
    assert.ok(cancelled instanceof LlmTimeoutError);
  });

  it('a broken body becomes LlmConnectionError; a caller abort stays an AbortError', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(bytes('a')),
      pull: (c) => c.error(Object.assign(new Error('socket'), { code: 'ECONNRESET' })),
    });
    const brokenFetch = createResilientFetch({ timeoutMs: 1000, fetch: async () => new Response(broken) });
    assert.ok((await failureOf(drain((await brokenFetch(`${BASE_URL}/x`, REQUEST)).body!))) instanceof LlmConnectionError);

    const stop = new AbortController();
    const abortable = createResilientFetch({
      timeoutMs: 1000,
      fetch: async (_input, init) =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull: (c) => new Promise((resolve) => init!.signal!.addEventListener('abort', () => resolve(c.error(init!.signal!.reason)))),
          }),
        ),
    });
    const body = (await abortable(`${BASE_URL}/x`, { ...REQUEST, signal: stop.signal })).body!;
    setTimeout(() => stop.abort(), 20);
    assert.equal(((await failureOf(drain(body))) as Error).name, 'AbortError');
  });

  it('leaving the loop early cancels the body underneath (which closes the connection)', async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({ pull: (c) => c.enqueue(bytes('x')), cancel: () => void (cancelled = true) });
    const fetch = createResilientFetch({ timeoutMs: 1000, fetch: async () => new Response(endless) });
    for await (const piece of (await fetch(`${BASE_URL}/x`, REQUEST)).body!) if (piece) break;
    assert.ok(cancelled);
  });

  it('text() still reads the body, and a body already being read refuses a second reader', async () => {
    const fetch = createResilientFetch({ timeoutMs: 1000, fetch: async () => new Response('hello') });
    assert.equal(await (await fetch(`${BASE_URL}/x`, REQUEST)).text(), 'hello');
    const body = (await fetch(`${BASE_URL}/x`, REQUEST)).body!;
    assert.equal(await drain(body), 'hello');
    assert.throws(() => body[Symbol.asyncIterator]());
  });

  it('streamChat through ChatCompletionsModel: a mid-stream stall is a timeout, and the text before it is kept', async () => {
    const event = (content: string) =>
      bytes(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: null }] })}\n\n`,
      );
    let sent = 0;
    const stallsAfterTwo = new ReadableStream<Uint8Array>({ pull: (c) => (sent++ < 2 ? c.enqueue(event(`t${sent}`)) : new Promise(() => {})) });
    const model = createChatModel(
      { baseURL: BASE_URL, model: 'm', timeoutMs: 150 },
      { fetch: async () => new Response(stallsAfterTwo, { headers: { 'content-type': 'text/event-stream' } }) },
    );
    const error = (await failureOf(streamChat(model, [new HumanMessage('hi')]))) as Error & { partialText?: string; cause?: unknown };
    assert.equal(error.partialText, 't1t2');
    assert.ok(error instanceof LlmTimeoutError || error.cause instanceof LlmTimeoutError, String(error));
  });
});
