import { strict as assert } from 'node:assert';
import { AgentFixture } from './agentHarness';

const FILES = {
  'README.md': '# Demo\n',
  'src/frequency.ts': 'export function wordFrequency(words: string[]) { return new Map(); }\n',
  'src/tokenize.ts': 'export const tokenize = (s: string) => s.split(" ");\n',
};

/**
 * A first answer that names workspace files no tool has shown gets one request to check them (scripted
 * server, real ChatOpenAI). The check guards the file layout the system prompt shows without the code
 * index (`useCodeIndex: false`, `ask --no-index`); with the index the model has seen the candidates' lines.
 */
const NO_INDEX = { useCodeIndex: false };

describe('agent: answers about files are checked against the files', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('a first answer naming files it never opened is sent back once; the checked answer replaces the draft', async () => {
    fx = await new AgentFixture(FILES, [
      { text: 'It is computed in frequency.ts.' },
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/frequency.ts' } }] },
      { text: 'In src/frequency.ts:1, wordFrequency.' },
    ]).start();
    const result = await fx.ask('Where is the word frequency computed?', NO_INDEX);
    assert.equal(result.answer, 'In src/frequency.ts:1, wordFrequency.', 'the unchecked draft is not the answer');
    const second = fx.server.requests[1]!.body!.messages!;
    assert.equal(second.at(-2)!.content, 'It is computed in frequency.ts.', 'the model sees its draft');
    assert.match(String(second.at(-1)!.content), /you named frequency\.ts without opening it/);
    assert.ok(fx.server.requests[1]!.body!.tools, 'tools are still offered');
    assert.deepEqual(
      fx.eventsOf('tool-call-end').map((e) => [e.tool, e.status]),
      [['read_file', 'ok']],
    );
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /named frequency\.ts without opening it; CodeWiki asked the model to check/,
    );
  });

  it('asks only once, and never when a tool was used or no workspace file is named', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'frequency.ts, I am sure.' }, { text: 'Still frequency.ts.' }]).start();
    const stubborn = await fx.ask('Where is the word frequency computed?', NO_INDEX);
    assert.equal(stubborn.answer, 'Still frequency.ts.');
    assert.equal(fx.server.requests.length, 2);
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: 'Hello! Ask me about the code, or about index.html in general.' }]).start();
    await fx.ask('hi', NO_INDEX);
    assert.equal(fx.server.requests.length, 1, 'index.html is not in the workspace: no check');
    await fx.close();

    fx = await new AgentFixture(FILES, [
      { toolCalls: [{ id: 'c1', name: 'list_files', arguments: { path: 'src' } }] },
      { text: 'frequency.ts and tokenize.ts.' },
    ]).start();
    await fx.ask('Which files are in src?', NO_INDEX);
    assert.equal(fx.server.requests.length, 2, 'after a tool call the answer stands');
  });
});
