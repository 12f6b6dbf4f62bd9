import { strict as assert } from 'node:assert';
import { inspect } from 'node:util';
import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { usageFromMessage } from '../../src/core/llm/usage';
import { OpenAiTestServer } from '../support/openaiServer';

/** What goes over the wire when the real ChatOpenAI talks to an OpenAI-compatible server through our fetch. */
describe('createChatModel on the wire', () => {
  let server: OpenAiTestServer;
  let url: string;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    ({ url } = await server.start());
  });
  afterEach(() => server.close());

  it('streams text in several chunks and reports the usage the server sent', async () => {
    server.enqueue({ text: 'The answer is forty two', chunkDelayMs: 5, usage: { prompt_tokens: 11, completion_tokens: 5 } });
    const model = createChatModel({ baseURL: url, model: 'local-model' });

    const pieces: string[] = [];
    let usage;
    for await (const chunk of await model.stream('What is the answer?')) {
      if (typeof chunk.content === 'string' && chunk.content) pieces.push(chunk.content);
      usage = usageFromMessage(chunk) ?? usage;
    }

    assert.ok(pieces.length >= 5, `expected several content chunks, got ${JSON.stringify(pieces)}`);
    assert.equal(pieces.join(''), 'The answer is forty two');
    assert.deepEqual(usage, { input: 11, output: 5, total: 16 });
  });

  it('sends model, temperature, max_tokens and stream_options.include_usage', async () => {
    server.enqueue({ text: 'ok' });
    const model = createChatModel({ baseURL: url, model: 'qwen-7b', temperature: 0.3, maxTokens: 123 });
    for await (const _ of await model.stream('hi')) void _;

    const body = server.lastRequest().body!;
    assert.equal(server.lastRequest().path, '/v1/chat/completions');
    assert.equal(body.model, 'qwen-7b');
    assert.equal(body.temperature, 0.3);
    assert.equal(body.max_tokens, 123);
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual(server.messagesOf(0), [{ role: 'user', content: 'hi' }]);
  });

  it('invoke() makes one non-streamed request and reads its usage', async () => {
    server.enqueue({ text: 'plain answer', usage: { prompt_tokens: 7, completion_tokens: 2 } });
    const model = createChatModel({ baseURL: url, model: 'm' });
    const answer = await model.invoke('question');

    assert.equal(answer.content, 'plain answer');
    assert.deepEqual(usageFromMessage(answer), { input: 7, output: 2, total: 9 });
    assert.equal(server.requests.length, 1);
    assert.equal(server.lastRequest().body!.stream, false);
  });

  it('invoke() streams, with real usage, when a callback handler prefers streaming', async () => {
    server.enqueue({ text: 'tokens as they come', usage: { prompt_tokens: 3, completion_tokens: 4 } });
    const model = createChatModel({ baseURL: url, model: 'm' });
    const sink = new TokenSink();
    const answer = await model.invoke('go', { callbacks: [sink] });

    assert.equal(server.lastRequest().body!.stream, true);
    assert.deepEqual(sink.tokens, ['tokens ', 'as ', 'they ', 'come']);
    assert.deepEqual(usageFromMessage(answer), { input: 3, output: 4, total: 7 });
  });

  it('sends no Authorization header without a key, even with OPENAI_API_KEY in the environment', async () => {
    const saved = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-the-environment';
    try {
      server.enqueue({ text: 'ok' }, { text: 'ok' });
      const model = createChatModel({ baseURL: url, model: 'm' });
      await model.invoke('hi');
      for await (const _ of await model.stream('hi')) void _;
    } finally {
      if (saved === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = saved;
    }
    for (const request of server.requests) {
      assert.equal(request.headers.authorization, undefined);
      assert.ok(!JSON.stringify(request.headers).includes('sk-from-the-environment'));
    }
  });

  it('sends Bearer <key> when a key is configured, and the key is not kept in the model object', async () => {
    server.enqueue({ text: 'ok' });
    const model = createChatModel({ baseURL: url, model: 'm', apiKey: 'sk-test-SECRET-0123456789' });
    await model.invoke('hi');

    assert.equal(server.lastRequest().headers.authorization, 'Bearer sk-test-SECRET-0123456789');
    assert.ok(!inspect(model, { depth: 8 }).includes('SECRET'), 'inspect(model) must not show the key');
    assert.ok(!JSON.stringify(model).includes('SECRET'), 'serialising the model must not show the key');
  });

  it('passes streamed tool calls (id, name, argument fragments) through bindTools', async () => {
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: { path: 'src/a.ts', maxLines: 40 } }] });
    const readFile = tool(async () => '', {
      name: 'read_file',
      description: 'Read a file',
      schema: z.object({ path: z.string(), maxLines: z.number() }),
    });
    const model = createChatModel({ baseURL: url, model: 'm' }).bindTools([readFile]);

    let message;
    for await (const chunk of await model.stream('read it')) message = message ? message.concat(chunk) : chunk;

    assert.deepEqual(
      message?.tool_calls?.map((c) => ({ id: c.id, name: c.name, args: c.args })),
      [{ id: 'call_1', name: 'read_file', args: { path: 'src/a.ts', maxLines: 40 } }],
    );
    assert.equal(server.lastRequest().body!.tools?.[0]?.function.name, 'read_file');
  });

  it('lets a responder route parallel requests on the prompt text', async () => {
    server.respondWith((request) => ({ text: request.promptText.includes('alpha') ? 'A' : 'B', delayMs: request.promptText.includes('alpha') ? 30 : 0 }));
    const model = createChatModel({ baseURL: url, model: 'm' });
    const [a, b] = await Promise.all([model.invoke('alpha task'), model.invoke('beta task')]);
    assert.equal(a.content, 'A');
    assert.equal(b.content, 'B');
  });

  it('serves GET /v1/models', async () => {
    const response = await fetch(`${url}/models`);
    const list = (await response.json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      list.data.map((m) => m.id),
      ['test-model'],
    );
  });
});

/** `lc_prefer_streaming` is how LangChain decides that invoke() should stream for this handler. */
class TokenSink extends BaseCallbackHandler {
  readonly name = 'TokenSink';
  readonly lc_prefer_streaming = true;
  readonly tokens: string[] = [];

  override handleLLMNewToken(token: string): void {
    if (token) this.tokens.push(token);
  }
}
