import { strict as assert } from 'node:assert';
import { placedAnswerCut } from '../../src/core/agent/placedAnswerCut';
import { REQUEST_START } from '../../src/core/agent/textProtocol/toolProtocol';
import { AgentFixture } from './agentHarness';

const FILES = {
  'crates/ignore/src/gitignore.rs':
    '/// Parses gitignore globs and matches paths against them.\npub struct Gitignore {}\nimpl Gitignore {\n    pub fn matched(&self, path: &str) -> bool { false }\n}\n',
  'README.md': '# demo\n',
};
const QUESTION = 'Where are the rules in a .gitignore file parsed?';
const SMALL_MODEL = { useCodeIndex: true, adapter: { toolSet: 'compact' as const } };
/** What the 1.5B default writes: the place, then a sentence more. */
const ANSWER = ['The ', 'file ', 'crates/ignore/src/gitignore.rs', ':2', ' defines', ' Gitignore', '.', ' ', 'It', ' parses', ' the', ' globs', '.'];
const TIMINGS = { cache_n: 900, prompt_n: 120, prompt_ms: 3_000, predicted_n: ANSWER.length, predicted_ms: 1_500 };

describe("agent: a small model's where-is answer ends once it has named its place", () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('ends after the sentence naming a listed file; the turn still reports what llama-server computed and cached', async () => {
    fx = await new AgentFixture(FILES, [{ chunks: ANSWER, timings: TIMINGS }]).start();
    fx.server.serveProps({ default_generation_settings: { n_ctx: 8192 } });
    const result = await fx.ask(QUESTION, SMALL_MODEL);
    const first = 'The file crates/ignore/src/gitignore.rs:2 defines Gitignore.';
    assert.equal(result.answer, first);
    assert.equal(
      fx
        .eventsOf('token')
        .map((e) => e.text)
        .join(''),
      first,
      'nothing after the sentence is shown',
    );
    assert.equal(fx.server.requests.length, 1, 'no second request: the answer named its place');
    assert.equal(fx.server.requests[0]!.body!.timings_per_token, true, "llama-server is asked for each event's timings");
    const [turn] = fx.eventsOf('turn-end');
    // The last event the client read ("It", which ended the answer) carried 9 of the 13 tokens; the prompt is the
    // server's count, not an estimate.
    assert.deepEqual(turn!.tokens, { input: 1_020, output: 9, total: 1_029, cached: 900 });
    assert.equal(turn!.server?.cachedTokens, 900);
  });

  it('leaves the whole answer of a large model, and of a small one to a question that is not where-is', async () => {
    const whole = ANSWER.join('');
    fx = await new AgentFixture(FILES, [{ chunks: ANSWER }]).start();
    assert.equal((await fx.ask(QUESTION, { useCodeIndex: true })).answer, whole, 'the full tool set: a large model');
    await fx.close();

    fx = await new AgentFixture(FILES, [{ chunks: ANSWER }]).start();
    assert.equal((await fx.ask('Explain how gitignore rules are parsed.', SMALL_MODEL)).answer, whole, 'not where-is');
  });

  it('an answer that ends right after its sentence is shown whole, what was held back included', async () => {
    const chunks = ['crates/ignore/src/gitignore.rs', ':2', ' defines', ' Gitignore', '.', '\n'];
    fx = await new AgentFixture(FILES, [{ chunks }]).start();
    const result = await fx.ask(QUESTION, SMALL_MODEL);
    assert.equal(
      fx
        .eventsOf('token')
        .map((e) => e.text)
        .join(''),
      chunks.join(''),
      'shown once, in order',
    );
    assert.equal(result.answer.trim(), 'crates/ignore/src/gitignore.rs:2 defines Gitignore.');
    assert.equal(fx.server.requests.length, 1);
  });

  it('a sentence naming its place, then a tool call the model wrote as text: the call is run, nothing is cut', async () => {
    const call = '<tool_call>\n{"name": "read_file", "arguments": {"path": "crates/ignore/src/gitignore.rs"}}\n</tool_call>';
    fx = await new AgentFixture(FILES, [
      { chunks: ['Let me read ', 'crates/ignore/src/gitignore.rs', '.', '\n', ...call.match(/[\s\S]{1,6}/g)!] },
      { text: 'crates/ignore/src/gitignore.rs:2 defines Gitignore.' },
    ]).start();
    const result = await fx.ask(QUESTION, SMALL_MODEL);
    assert.deepEqual(
      fx.eventsOf('tool-call-start').map((e) => e.tool),
      ['search_code', 'read_file'],
      "CodeWiki's search, then the model's call",
    );
    assert.equal(fx.server.requests.length, 2);
    assert.equal(
      result.answer,
      'Let me read crates/ignore/src/gitignore.rs.\n\ncrates/ignore/src/gitignore.rs:2 defines Gitignore.',
      'the narration, then the answer',
    );
  });

  it('reads where the sentence naming a listed file ends, and what follows it', () => {
    const files = ['src/a.ts', 'gson/src/JsonWriter.java'];
    const end = (answer: string) => {
      const cut = placedAnswerCut(answer, files);
      return cut && 'end' in cut ? answer.slice(0, cut.end) : cut;
    };
    assert.equal(end('It is in `src/a.ts` at line 3. It parses.'), 'It is in `src/a.ts` at line 3.');
    assert.equal(end('src/a.ts:3: export function parse()\nsrc/a.ts:9: more'), 'src/a.ts:3: export function parse()', 'a line is a sentence');
    assert.equal(end('gson/src/JsonWriter.java:40 writes the newline! Then'), 'gson/src/JsonWriter.java:40 writes the newline!');
    assert.equal(
      end('The writer (gson/src/JsonWriter.java) indents, e.g. with two spaces. More'),
      'The writer (gson/src/JsonWriter.java) indents, e.g. with two spaces.',
    );
    assert.equal(end('In src/a.ts, `ok ? a : b` picks. More'), 'In src/a.ts, `ok ? a : b` picks.', 'not inside inline code');
    assert.equal(end('**It is in src/a.ts:5.** It parses.'), '**It is in src/a.ts:5.**', 'after what the mark closes');
    assert.equal(end('It is in ./src/a.ts. More'), 'It is in ./src/a.ts.', './ names the same file');
    assert.equal(end('It is in src/a.ts:5\r\nMore'), 'It is in src/a.ts:5');
    assert.equal(end('It is in src/a.ts. [More](https://example.com)'), 'It is in src/a.ts.', 'a link is prose');
    assert.equal(end('It is in src/a.ts. [{"name": "read_file"}]'), undefined, 'a JSON array is a call');
    assert.equal(end('Parsing happens in ../src/a.ts. It parses.'), undefined, 'another folder');
    assert.equal(
      end('See src/a.ts:3:\nexport function parse() {}. Done. More'),
      'See src/a.ts:3:\nexport function parse() {}.',
      'a colon introduces what follows',
    );
    assert.equal(end('In `src/a.ts`:\n1. `parse` reads it. More'), 'In `src/a.ts`:\n1. `parse` reads it.', "a list item's number is no end");
    assert.deepEqual(end('It is in src/a.ts. '), { hold: 1 }, 'what follows is held back until it says what it is');
    assert.deepEqual(end('It is in src/a.ts.\n\n'), { hold: 2 });
    assert.equal(end('It is in src/a.ts. <read_file path="src/a.ts" />'), undefined, 'an XML tool call follows');
    assert.equal(end('It is in src/a.ts.\n```ts\nparse()\n```'), undefined, 'a code block follows');
    assert.equal(end(`Reading src/a.ts. ${REQUEST_START}\ntool_name: read_file`), undefined, 'a text-protocol request follows');
    assert.equal(end('It is in src/a.ts. {"name": "read_file"}'), undefined, 'a JSON tool call follows');
    assert.equal(end('See src/a.ts and its tests.'), undefined, 'the sentence has not ended: more may come');
    assert.equal(end('Parsing happens in src/b.ts. It parses.'), undefined, 'an unlisted file');
    assert.equal(end('Parsing happens in src/a.tsx. It parses.'), undefined, 'a longer name is another file');
    assert.equal(end('Parsing happens in lib/src/a.ts. It parses.'), undefined, 'a longer path is another file');
    assert.equal(end('```\nsrc/a.ts:3\n```\nMore.'), undefined, 'a code fence');
    assert.equal(end('<tool_call>\n{"name": "read_file", "arguments": {"path": "src/a.ts"}}\n</tool_call>'), undefined, 'a tool call as text');
    assert.equal(end('{"name": "read_file", "arguments": {"path": "src/a.ts"}}\nMore.'), undefined, 'a JSON tool call');
  });
});
