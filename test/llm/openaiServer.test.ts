import { strict as assert } from 'node:assert';
import { createChatModel } from '../../src/core/llm/createChatModel';
import { OpenAiTestServer } from '../support/openaiServer';

/** The scripted server is shared by many tests and benchmarks; these pin down the parts the other tests do not. */
describe('OpenAiTestServer', () => {
  it('answers non-streamed tool calls and finish_reason "length" in protocol shape', async () => {
    const server = new OpenAiTestServer([
      { toolCalls: [{ id: 'call_9', name: 'search', arguments: '{"q": "unterminated' }] },
      { text: 'cut off', finishReason: 'length' },
    ]);
    const { url } = await server.start();
    try {
      const raw = await postJson(url, { model: 'm', messages: [{ role: 'user', content: 'go' }] });
      assert.deepEqual(raw.choices[0].message.tool_calls, [{ id: 'call_9', type: 'function', function: { name: 'search', arguments: '{"q": "unterminated' } }]);
      assert.equal(raw.choices[0].message.content, null);
      assert.equal(raw.choices[0].finish_reason, 'tool_calls');

      const answer = await createChatModel({ baseURL: url, model: 'm' }).invoke('go on');
      assert.equal(answer.content, 'cut off');
      assert.equal(answer.response_metadata.finish_reason, 'length');
      assert.equal(server.requests[1]!.promptText, 'go on');
    } finally {
      await server.close();
    }
  });

  it('answers an unscripted request with a 500 that says so', async () => {
    const server = new OpenAiTestServer();
    const { url } = await server.start();
    try {
      const response = await fetch(`${url}/chat/completions`, { method: 'POST', body: '{}' });
      assert.equal(response.status, 500);
      assert.match(await response.text(), /no scripted turn for request #0/);
    } finally {
      await server.close();
    }
  });

  it('close() ends stalled connections so the test process can exit', async () => {
    const server = new OpenAiTestServer([{ stall: 'before-headers' }, { text: 'a b c', stall: 'mid-stream' }]);
    const { url } = await server.start();
    const first = fetch(`${url}/chat/completions`, { method: 'POST', body: '{"stream":false}' }).catch((e: Error) => e);
    const second = fetch(`${url}/chat/completions`, { method: 'POST', body: '{"stream":true}' })
      .then((r) => r.text())
      .catch((e: Error) => e);
    await server.waitForRequests(2);
    await server.close();

    assert.ok((await first) instanceof Error);
    assert.ok((await second) instanceof Error);
    assert.ok(server.requests.every((r) => r.closedAt !== undefined && r.finishedAt === undefined));
  });
});

/** The parts of a non-streamed chat completion these tests read. */
interface ChatCompletionBody {
  choices: Array<{ message: { content: string | null; tool_calls?: unknown }; finish_reason: string }>;
}

async function postJson(url: string, body: object): Promise<ChatCompletionBody> {
  const response = await fetch(`${url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await response.json()) as ChatCompletionBody;
}
