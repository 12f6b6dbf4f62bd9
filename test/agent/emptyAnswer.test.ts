import { strict as assert } from 'node:assert';
import { AgentFixture } from './agentHarness';

/** A turn that says nothing (Qwen 1.5B's bare `<tools></tools>`) is not shown as the answer: the model is asked once more. */
describe('agent: an empty answer is asked again once', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('a bare <tools></tools> never reaches the answer; the next turn answers', async () => {
    fx = await new AgentFixture({ 'src/a.ts': 'export const a = 1;\n' }, [{ text: '<tools></tools>' }, { text: 'The constant a is one.' }]).start();
    const result = await fx.ask('Where is a?');
    assert.equal(result.answer, 'The constant a is one.');
    assert.equal(
      fx
        .eventsOf('token')
        .map((e) => e.text)
        .join(''),
      'The constant a is one.',
      'the empty wrapper was never streamed',
    );
    const second = fx.server.requests[1]!.body!.messages!;
    assert.match(String(second.at(-1)!.content), /^You wrote no answer\. Answer the question in a sentence or two/);
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /the model wrote no answer; CodeWiki asked it once more/,
    );
  });

  it('an answer wrapped like a tool result is shown without the wrapper', async () => {
    fx = await new AgentFixture({ 'src/a.ts': 'export const a = 1;\n' }, [
      { chunks: ['<tool_re', 'sponse>\nThe constant a', ' is one.\n</tool_response>'] },
    ]).start();
    const result = await fx.ask('What is a?');
    assert.equal(result.answer, 'The constant a is one.');
    assert.equal(
      fx
        .eventsOf('token')
        .map((e) => e.text)
        .join(''),
      'The constant a is one.',
      'the tags were never streamed',
    );
  });

  it('asks only once: a second empty turn ends the run', async () => {
    fx = await new AgentFixture({ 'src/a.ts': 'export const a = 1;\n' }, [{ text: '' }, { text: '' }, { text: 'never asked for' }]).start();
    const result = await fx.ask('Where is a?');
    assert.equal(fx.server.requests.length, 2);
    assert.equal(result.stopReason, 'answered');
  });
});
