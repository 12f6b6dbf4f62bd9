import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HumanMessage } from '@langchain/core/messages';
import { OpenAIClient } from '@langchain/openai';
import { completionChunkStream } from '../../src/core/llm/completionChunkStream';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { streamChat } from '../../src/core/llm/streamChat';
import { OpenAiTestServer } from '../support/openaiServer';

/**
 * Our SSE decoder against the OpenAI SDK's own `Stream`, on the same bytes cut at every size: both must
 * yield the same events and fail with the same message. The SDK is the reference because ChatOpenAI read
 * its events before (completionChunkStream.ts says why we decode them ourselves).
 */
const chunk = (delta: object, extra: object = {}) =>
  JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: null }], ...extra });
const usage = JSON.stringify({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
});

const BODIES: Record<string, string> = {
  'a plain answer': `data: ${chunk({ role: 'assistant', content: '' })}\n\ndata: ${chunk({ content: 'Hel' })}\n\ndata: ${chunk({ content: 'lo' })}\n\ndata: ${usage}\n\ndata: [DONE]\n\n`,
  'CRLF line ends': `data: ${chunk({ content: 'a' })}\r\n\r\ndata: ${chunk({ content: 'b' })}\r\n\r\ndata: [DONE]\r\n\r\n`,
  'CR line ends': `data: ${chunk({ content: 'a' })}\r\rdata: ${chunk({ content: 'b' })}\r\r`,
  'comments, other fields, no space after the colon, data over two lines': `: keep-alive\n\nid: 7\nretry: 100\nevent: message\ndata:${chunk({ content: 'x' })}\n\ndata: {"id":"c1","choices":\ndata: [{"index":0,"delta":{"content":"y"}}]}\n\n`,
  'events after [DONE] are ignored': `data: ${chunk({ content: 'a' })}\n\ndata: [DONE]\n\ndata: ${chunk({ content: 'late' })}\n\n`,
  'an event cut off at the end of the body is dropped': `data: ${chunk({ content: 'a' })}\n\ndata: ${chunk({ content: 'cut' })}\n`,
  'a last line without its line end': `data: ${chunk({ content: 'a' })}\n\ndata: ${chunk({ content: 'b' })}`,
  'multi-byte characters': `data: ${chunk({ content: 'é😀漢' })}\n\ndata: ${chunk({ content: '✓' })}\n\n`,
  'an SSE error event after some text': `data: ${chunk({ content: 'partial' })}\n\nevent: error\ndata: {"error":{"message":"the model crashed","code":500}}\n\n`,
  'an error object in a plain event': `data: ${chunk({ content: 'a' })}\n\ndata: {"error":{"message":{"detail":"nested"}}}\n\n`,
  'an error without a message': `data: {"error":{"code":"overloaded"}}\n\n`,
  'JSON that does not parse': `data: ${chunk({ content: 'a' })}\n\ndata: {"choices": [\n\n`,
  'an Assistants-style event name': `event: thread.message.delta\ndata: {"x":1}\n\ndata: ${chunk({ content: 'a' })}\n\n`,
  'an event field alone': `event: ping\n\ndata: ${chunk({ content: 'a' })}\n\n`,
};

/** A transport that answers with `body` cut into `size`-byte pieces, each its own read. */
function piecesFetch(body: string, size: number): typeof fetch {
  const bytes = new TextEncoder().encode(body);
  return async () => {
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + size));
        offset += size;
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

interface Outcome {
  events: unknown[];
  error?: string;
}

async function collect(events: () => Promise<AsyncIterable<unknown>>): Promise<Outcome> {
  const outcome: Outcome = { events: [] };
  try {
    for await (const event of await events()) outcome.events.push(event);
  } catch (error) {
    outcome.error = (error as Error).message;
  }
  return outcome;
}

function clientFor(fetch: typeof globalThis.fetch): OpenAIClient {
  return new OpenAIClient({ apiKey: 'none', baseURL: 'http://127.0.0.1:9/v1', fetch, maxRetries: 0, logLevel: 'off' });
}

const REQUEST = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], stream: true as const };

describe('completionChunkStream: the SSE decoder of streamed answers', () => {
  for (const [name, body] of Object.entries(BODIES)) {
    it(`${name}: the same events and the same failure as the SDK's own decoder, at every read size`, async () => {
      const sizes = new Set([1, 2, 3, 5, 8, 13, 64, body.length]);
      for (const size of sizes) {
        const client = clientFor(piecesFetch(body, size));
        const sdk = await collect(async () => client.chat.completions.create(REQUEST));
        const ours = await collect(async () => completionChunkStream(await client.chat.completions.create(REQUEST).asResponse()));
        assert.deepEqual(ours, sdk, `read size ${size}`);
      }
    });
  }

  it('a real answer through ChatCompletionsModel over HTTP: the tokens, text, usage and finish reason', async () => {
    const server = new OpenAiTestServer([{ chunks: ['Hello', ', ', 'world'], usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 } }]);
    const { url } = await server.start();
    try {
      const model = createChatModel({ baseURL: url, model: 'test-model' });
      const tokens: string[] = [];
      const answer = await streamChat(model, [new HumanMessage('Say hello')], { onToken: (text) => tokens.push(text) });
      assert.deepEqual(tokens, ['Hello', ', ', 'world']);
      assert.deepEqual(answer, { text: 'Hello, world', reasoning: '', usage: { input: 11, output: 3, total: 14 }, finishReason: 'stop' });
      assert.equal(server.requests[0].body?.stream, true);
      assert.deepEqual(server.requests[0].body?.stream_options, { include_usage: true }, 'usage is asked for, as ChatOpenAI asks');
    } finally {
      await server.close();
    }
  });

  it('stopping early cancels the body, which closes the connection', async () => {
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${chunk({ content: 'more ' })}\n\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = new Response(endless, { headers: { 'content-type': 'text/event-stream' } });
    let seen = 0;
    for await (const event of completionChunkStream(response)) {
      assert.ok(event);
      if (++seen === 3) break;
    }
    assert.equal(cancelled, true);
  });

  it('an aborted body ends the events quietly (the caller asked), any other failure is thrown as is', async () => {
    const failing = (error: Error) =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (c) => c.enqueue(new TextEncoder().encode(`data: ${chunk({ content: 'a' })}\n\n`)),
          pull: (c) => c.error(error),
        }),
      );
    const aborted = await collect(async () => completionChunkStream(failing(new DOMException('stopped', 'AbortError'))));
    assert.equal(aborted.events.length, 1);
    assert.equal(aborted.error, undefined);
    const broken = await collect(async () => completionChunkStream(failing(new Error('socket hang up'))));
    assert.equal(broken.events.length, 1);
    assert.equal(broken.error, 'socket hang up');
  });
});

describe('streamChat reading wire events', () => {
  it('events of any shape (null, numbers, strings where objects belong) are passed over; the text, usage and finish reason come from the well-formed ones', async () => {
    const hostile = [
      'null',
      '5',
      '"text"',
      '{"choices":"abc"}',
      '{"choices":[null]}',
      '{"choices":[{"delta":{"content":["x"]}}]}',
      '{"usage":7}',
      '{"choices":[{"delta":{"reasoning_content":{"x":1}}}]}',
      '{"choices":[{"delta":{"reasoning_content":"hmm"}}]}',
      '{"choices":[{"finish_reason":3,"delta":{"content":"ok"}}]}',
      '{"choices":[{"finish_reason":"length","delta":{}}]}',
      '{"choices":[],"usage":{"prompt_tokens":4,"completion_tokens":"2","total_tokens":-1}}',
    ];
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(hostile.map((data) => `data: ${data}\n\n`).join('') + 'data: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const model = createChatModel({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, model: 'm' });
      const answer = await streamChat(model, [new HumanMessage('hi')]);
      assert.deepEqual(answer, { text: 'ok', reasoning: 'hmm', usage: { input: 4, output: 0, total: 0 }, finishReason: 'length' });
    } finally {
      server.close();
    }
  });
});
