import { strict as assert } from 'node:assert';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import type { RecordedRequest } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const FILES = {
  'src/frequency.ts':
    '/** Counts every word except stop words. */\nexport function countWords(words: string[]): Map<string, number> {\n  return new Map();\n}\n',
  'src/stopWords.ts': 'export const STOP_WORDS = new Set(["a", "the"]);\n',
  'README.md': '# words\n',
};

/** What a prompt cache keys on: the system message and the tool definitions, byte for byte. */
function fixedPrefix(request: RecordedRequest): string {
  const body = request.body!;
  return JSON.stringify({ system: body.messages![0], tools: body.tools });
}

/**
 * A server with a prompt cache (llama-server) computes only what follows the longest prefix it has seen. These
 * tests hold the agent to that: the same fixed head for every question of a workspace, whichever process asks,
 * whatever file is open; a tool round that only appends; and `cache_prompt` asked of llama-server alone.
 */
describe('the prompt prefix a server can cache (built CLI, scripted server)', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let server: OpenAiTestServer | undefined;
  beforeEach(() => (ws = tempWorkspace(FILES)));
  afterEach(async () => {
    await server?.close();
    server = undefined;
    ws.cleanup();
  });
  const ask = (question: string, ...flags: string[]) =>
    runCli(['ask', question, '--workspace', ws.root, '--base-url', server!.url, '--model', 'qwen2.5-coder-1.5b-instruct', ...flags]);

  it('two questions in two processes, one with an open file, send a byte-identical system message and tools; what varies comes after', async () => {
    server = new OpenAiTestServer([{ text: 'In src/frequency.ts.' }, { text: 'In src/stopWords.ts.' }]);
    await server.start();
    const first = await ask('Where is countWords defined?');
    const second = await ask('Which file lists the stop words?', '--open', 'README.md');
    assert.equal(first.code, 0, first.stderr);
    assert.equal(second.code, 0, second.stderr);
    const [a, b] = server.requests;
    assert.ok(a!.body!.tools!.length > 3, 'tools are offered');
    assert.match(String(a!.body!.messages![0]!.content), /countWords/, 'the repo map is in the fixed prefix');
    assert.equal(fixedPrefix(b!), fixedPrefix(a!));
    assert.doesNotMatch(String(b!.body!.messages![0]!.content), /README\.md.*open|open.*README\.md/);
    const question = b!.body!.messages!.find((m) => m.role === 'user')!;
    assert.equal(question.content, '(The user has this file open in the editor: README.md)\n\nWhich file lists the stop words?');
  });

  it('a tool round only appends: the second request starts with every message of the first, unchanged', async () => {
    server = new OpenAiTestServer([
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'src/stopWords.ts' } }] },
      { text: 'It is STOP_WORDS in src/stopWords.ts.' },
    ]);
    await server.start();
    const result = await ask('What is in the stop words file?');
    assert.equal(result.code, 0, result.stderr);
    const [before, after] = server.requests.map((request) => request.body!.messages!);
    assert.deepEqual(after!.slice(0, before!.length), before, 'nothing sent before was rewritten');
    assert.deepEqual(
      after!.slice(before!.length).map((m) => m.role),
      ['assistant', 'tool'],
    );
    assert.equal(fixedPrefix(server.requests[1]!), fixedPrefix(server.requests[0]!));
  });

  it('asks llama-server (which answers GET /props) for cache_prompt and timings_per_token, and never sends them to another server', async () => {
    server = new OpenAiTestServer([{ text: 'In src/frequency.ts.' }, { text: 'In src/frequency.ts.' }]);
    await server.start();
    assert.equal((await ask('Where is countWords defined?')).code, 0);
    assert.equal(server.requests[0]!.body!.cache_prompt, undefined, 'a server without /props is not llama-server');
    assert.equal(server.requests[0]!.body!.timings_per_token, undefined);
    server.serveProps({ default_generation_settings: { n_ctx: 16384 } });
    assert.equal((await ask('Where is countWords defined?')).code, 0);
    assert.equal(server.requests[1]!.body!.cache_prompt, true);
    assert.equal(server.requests[1]!.body!.timings_per_token, true);
    assert.ok(server.propsRequests >= 2, 'each process asked once');
  });

  it("on llama-server, ask reads the workspace's saved prompt back before the question and saves it after the answer", async () => {
    server = new OpenAiTestServer([{ text: 'In src/frequency.ts.' }, { text: 'In src/stopWords.ts.' }, { text: 'In src/stopWords.ts.' }])
      .serveProps({ default_generation_settings: { n_ctx: 16384 } })
      .serveSlots();
    await server.start();
    const first = await ask('Where is countWords defined?', '--verbose');
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /· prompt cache: nothing saved yet for this workspace and model/);
    const second = await ask('Which file lists the stop words?', '--verbose');
    assert.match(second.stderr, /· prompt cache: 1,234 tokens of this workspace's prompt read back from disk \(9 ms\)/);
    assert.deepEqual(
      server.slotActions.map((a) => [a.action, a.afterRequests]),
      [
        ['restore', 0],
        ['save', 1],
        ['restore', 1],
        ['save', 2],
      ],
    );
    assert.equal(new Set(server.slotActions.map((a) => a.filename)).size, 1, 'one file for the workspace and model');
    await ask('Which file lists the stop words?', '--no-index');
    assert.notEqual(server.slotActions.at(-1)!.filename, server.slotActions[0]!.filename, 'without the index the prompt differs, and so does its file');
  });

  it('--verbose prints each model call: prompt tokens with the cached share, generated tokens and llama-server speeds', async () => {
    server = new OpenAiTestServer([
      {
        text: 'In src/frequency.ts.',
        usage: { prompt_tokens: 1_500, completion_tokens: 8, cached_tokens: 1_400 },
        timings: { cache_n: 1_400, prompt_n: 100, prompt_ms: 2_000, predicted_n: 8, predicted_ms: 1_000 },
      },
    ]);
    await server.start();
    const result = await ask('Where is countWords defined?', '--verbose');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'In src/frequency.ts.\n');
    const line = result.stderr.split('\n').find((l) => l.startsWith('· model call'));
    assert.match(
      line ?? '',
      /^· model call 1: 1,500 prompt tokens \(1,400 cached\), 8 generated; first token [\d.]+ m?s; [\d.]+ m?s in all; prompt 100 computed at 50\.0 tokens\/s, generation 8\.0 tokens\/s$/,
      result.stderr,
    );
    const quiet = await ask('Where is countWords defined?');
    assert.doesNotMatch(quiet.stderr, /model call/);
  });
});
