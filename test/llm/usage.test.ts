import { strict as assert } from 'node:assert';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { addUsage, usageFromMessage, UsageCollector, ZERO_USAGE } from '../../src/core/llm/usage';
import { OpenAiTestServer } from '../support/openaiServer';

describe('token usage', () => {
  let server: OpenAiTestServer;
  let url: string;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    ({ url } = await server.start());
  });
  afterEach(() => server.close());

  it('counts an LLM call nested inside a tool that passes its config on', async () => {
    server.respondWith((request) =>
      request.promptText.includes('Summarise')
        ? { text: 'short summary', usage: { prompt_tokens: 100, completion_tokens: 20 } }
        : { text: 'unexpected', usage: { prompt_tokens: 1, completion_tokens: 1 } },
    );
    const toolModel = createChatModel({ baseURL: url, model: 'small' });
    const summarise = tool(
      async ({ text }: { text: string }, config?: RunnableConfig) => {
        const answer = await toolModel.invoke([new HumanMessage(`Summarise: ${text}`)], config);
        return String(answer.content);
      },
      { name: 'summarise', description: 'Summarise a text', schema: z.object({ text: z.string() }) },
    );

    const collector = new UsageCollector();
    const result = await summarise.invoke({ text: 'a long document' }, { callbacks: [collector] });

    assert.equal(result, 'short summary');
    assert.deepEqual(collector.usage, { input: 100, output: 20, total: 120 });
    assert.equal(collector.callCount, 1);
  });

  it('adds up streamed and non-streamed calls made under one collector', async () => {
    server.enqueue(
      { text: 'first', usage: { prompt_tokens: 10, completion_tokens: 3 } },
      { text: 'second', usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
    );
    const model = createChatModel({ baseURL: url, model: 'm' });
    const collector = new UsageCollector();

    await model.invoke('one', { callbacks: [collector] });
    for await (const _ of await model.stream('two', { callbacks: [collector] })) void _;

    assert.deepEqual(collector.usage, { input: 15, output: 5, total: 20 });
    assert.equal(collector.callCount, 2);
  });

  it('reads usage_metadata and tells missing usage apart from zero', () => {
    const message = new AIMessage({ content: 'x', usage_metadata: { input_tokens: 4, output_tokens: 6, total_tokens: 10 } });
    assert.deepEqual(usageFromMessage(message), { input: 4, output: 6, total: 10 });
    assert.equal(usageFromMessage(new AIMessage('no usage')), undefined);
    assert.deepEqual(addUsage({ input: 1, output: 2, total: 3 }, { input: 4, output: 6, total: 10 }), { input: 5, output: 8, total: 13 });
    assert.deepEqual(addUsage(ZERO_USAGE, undefined), { input: 0, output: 0, total: 0 });
  });
});
