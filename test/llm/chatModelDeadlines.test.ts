import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { ChatOpenAI } from '@langchain/openai';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { describeLlmError, isAbortError } from '../../src/core/llm/describeLlmError';
import { LlmConnectionError, LlmTimeoutError } from '../../src/core/llm/llmErrors';
import { createResilientFetch } from '../../src/core/llm/resilientFetch';
import { OpenAiTestServer } from '../support/openaiServer';

/** Stalls, resets and Stop: every call ends, with an error that says why, and a cancelled request frees its socket. */
describe('createChatModel deadlines and cancellation', () => {
  const key = 'sk-test-SECRET-0123456789';
  let server: OpenAiTestServer;
  let url: string;
  let model: ChatOpenAI;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    ({ url } = await server.start());
    model = createChatModel({ baseURL: url, model: 'm', apiKey: key, timeoutMs: 300 }, { retryBaseDelayMs: 5 });
  });
  afterEach(() => server.close());

  async function streamAll(signal?: AbortSignal, onChunk?: () => void): Promise<string> {
    let text = '';
    for await (const chunk of await model.stream('hi', { signal })) {
      text += String(chunk.content);
      onChunk?.();
    }
    return text;
  }

  async function failureOf(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (error) {
      assert.ok(!inspect(error, { depth: 8 }).includes('SECRET'), 'the key must not appear in the error');
      return error;
    }
    assert.fail('expected the call to fail');
  }

  it('fails with a timeout when the server accepts and never answers', async () => {
    server.enqueue({ stall: 'before-headers' }, { text: 'must not be reached' });
    const error = await failureOf(model.invoke('hi'));

    assert.ok(
      causes(error).some((e) => e instanceof LlmTimeoutError),
      'an LlmTimeoutError is in the cause chain',
    );
    assert.equal(describeLlmError(error, url), `No response from ${url} within 0.3 s (timeout)`);
    assert.equal(server.requests.length, 1, 'a timeout is not retried');
    await server.waitForClose(0);
  });

  it('fails with a timeout when the stream stalls mid-way, instead of returning a truncated answer', async () => {
    server.enqueue({ text: 'one two three four', stall: 'mid-stream', stallAfterChunks: 2 });
    const error = await failureOf(streamAll());

    assert.ok(error instanceof LlmTimeoutError);
    assert.equal(describeLlmError(error, url), `The response from ${url} stalled: no data for 0.3 s (timeout)`);
    await server.waitForClose(0);
  });

  it('times silences, not the whole answer: slow chunks and a consumer busier than the deadline are not timeouts', async () => {
    // Each gap is two thirds of the deadline, the answer as a whole takes several deadlines, and the consumer
    // sits on the first chunk longer than a deadline: only a server silence while we wait counts.
    server.enqueue({ text: 'one two three four five', chunkDelayMs: 200 });
    let chunks = 0;
    const text = await streamAll(undefined, () => {
      chunks++;
      if (chunks === 1) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 450);
    });
    assert.equal(text, 'one two three four five');
  });

  for (const [read, label] of [
    ['none', 'no chunk'],
    ['one-chunk', 'one chunk'],
  ]) {
    it(`a body left unread after ${label} keeps no timer running, so the process can exit`, async () => {
      // The idle clock runs only while a read is pending; one that re-armed for ever kept mocha from exiting.
      const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'unreadBody.ts'), read], { stdio: ['ignore', 'pipe', 'inherit'] });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const stillRunning = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 15_000).unref());
      const outcome = await Promise.race([exited, stillRunning]);
      if (outcome === 'still running') child.kill('SIGKILL');
      assert.equal(output, 'left unread\n');
      assert.equal(outcome, 0, 'the child exits by itself once its work is done');
    });
  }

  it('a body that stalls under a transport that ignores the abort still fails with a timeout', async () => {
    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) }); // never a byte, never an error
    const fetchWithDeadlines = createResilientFetch({ timeoutMs: 100, fetch: async () => new Response(silent, { status: 200 }) });
    const response = await fetchWithDeadlines(`${url}/chat/completions`, { method: 'POST', body: '{}' });
    const error = await failureOf(response.body!.getReader().read());
    assert.ok(error instanceof LlmTimeoutError, `expected a timeout, got ${String(error)}`);
  });

  it('fails with a timeout when a non-streamed body stalls', async () => {
    server.enqueue({ text: 'one two three', stall: 'mid-stream' });
    const error = await failureOf(model.invoke('hi'));
    assert.match(describeLlmError(error, url), /stalled: no data for 0\.3 s \(timeout\)$/);
  });

  it('aborting an in-flight stream closes the socket and rejects as an abort', async () => {
    server.enqueue({ text: 'one two three four five six', chunkDelayMs: 5_000 });
    const stop = new AbortController();
    const error = await failureOf(streamAll(stop.signal, () => stop.abort()));

    assert.ok(isAbortError(error), `expected an abort error, got ${String(error)}`);
    assert.equal(describeLlmError(error, url), 'Cancelled');
    await server.waitForClose(0);
    assert.equal(server.requests[0]!.finishedAt, undefined, 'the server never finished its answer');
  });

  it('aborting while waiting for headers closes the socket', async () => {
    server.enqueue({ stall: 'before-headers' });
    const slow = createChatModel({ baseURL: url, model: 'm', timeoutMs: 60_000 });
    const stop = new AbortController();
    const pending = failureOf(slow.invoke('hi', { signal: stop.signal }));
    await server.waitForRequests(1);
    stop.abort();

    assert.ok(isAbortError(await pending));
    await server.waitForClose(0);
  });

  it('aborting during a retry back-off ends the call without another attempt', async () => {
    // Retry-After 30 s: a back-off that ignored the abort would outlast this test's 20 s timeout.
    server.enqueue({ status: 429, headers: { 'retry-after': '30' } }, { text: 'never' });
    // The transport under the retry layer tells when the 429 has reached the client: from then on the call can
    // only be in its back-off (an abort any earlier would cancel the request itself, a different path).
    let answered: (status: number) => void = () => {};
    const firstAnswer = new Promise<number>((resolve) => (answered = resolve));
    const observed = createChatModel(
      { baseURL: url, model: 'm', apiKey: key, timeoutMs: 300 },
      {
        retryBaseDelayMs: 5,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          answered(response.status);
          return response;
        },
      },
    );
    const stop = new AbortController();
    const pending = failureOf(observed.invoke('hi', { signal: stop.signal }));
    assert.equal(await firstAnswer, 429, 'the client received the 429 first');
    assert.equal(server.requests[0]!.status, 429, 'the server recorded that it answered 429');
    assert.ok(server.requests[0]!.finishedAt !== undefined, 'and that the 429 was completely written');
    stop.abort();

    assert.equal(describeLlmError(await pending, url), 'Cancelled');
    assert.equal(server.requests.length, 1, 'no second attempt after the abort');
  });

  it('a connection dropped after a few chunks gives a clear error', async () => {
    server.enqueue({ text: 'one two three four five', resetAfterChunks: 3 });
    let received = '';
    const error = await failureOf(
      (async () => {
        for await (const chunk of await model.stream('hi')) received += String(chunk.content);
      })(),
    );

    assert.equal(received, 'one two ', 'the chunks sent before the drop arrived');
    assert.ok(error instanceof LlmConnectionError);
    assert.equal(describeLlmError(error, url), `The connection to ${url} was lost in the middle of the response — the server may have crashed or restarted`);
    assert.equal(server.requests.length, 1, 'a half-delivered answer is not retried');
  });
});

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 8; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}
