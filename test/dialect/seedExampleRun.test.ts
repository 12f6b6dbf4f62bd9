import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const EXAMPLE = join(__dirname, '..', '..', 'docs', 'examples', 'research-summarize-store.yaml');

const FILES = {
  'src/server.ts': '/** Starts the HTTP server. */\nexport function createServer(port: number) {\n  return listen(port, "SERVER_BODY");\n}\n',
  'src/main.ts': 'import { createServer } from "./server";\ncreateServer(8080); // MAIN_BODY\n',
  'README.md': 'Nothing about the topic here.\n',
};

/**
 * Seed 002's research-summarize-store, in seed 002's own dialect, run by the CLI against a
 * scripted OpenAI-protocol server: search_text → read_file (conditional) → summarize_llm_tool,
 * with the chain-level fallback and the output mapping.
 */
describe('seed 002 dialect: the research-summarize-store example on the CLI', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const env = () => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', CODEWIKI_TOOL_MODEL: 'tool-model' });
  const run = (...args: string[]) => runCli(['run', EXAMPLE, '--workspace', ws.root, ...args], { env: env() });

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace(FILES);
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('searches, reads the first match, summarises it with the tool model and prints the output mapping', async () => {
    server.enqueue({ text: '- createServer starts the HTTP server on a port', usage: { prompt_tokens: 120, completion_tokens: 11 } });
    const log = join(ws.root, 'run.json');
    const result = await run('--input', 'topic=createServer', '--input', 'folder=src', '--log', log);
    assert.equal(result.code, 0, result.stderr);

    assert.deepEqual(
      yaml.load(result.stdout),
      { summary: '- createServer starts the HTTP server on a port', source: 'src/main.ts', sources_count: 3 },
      'three matching lines, main.ts first',
    );
    assert.match(result.stderr, /✓ search \(search_text\)/);
    assert.match(result.stderr, /✓ fetch \(read_file\)/);
    assert.match(result.stderr, /✓ summarize \(summarize_llm_tool\)/);

    assert.equal(server.requests.length, 1, 'one LLM call: the summarize step');
    const [request] = server.requests;
    assert.equal(request.body?.model, 'tool-model');
    assert.match(request.promptText, /Bullet points: what createServer is and how this code uses it\./, '${input.topic} inside text');
    assert.match(request.promptText, /At most 500 words/, 'max_words: 500 reached the tool');
    assert.match(request.promptText, /MAIN_BODY/, '${steps.fetch.output} is the file that ${steps.search.output[0].path} named');
    assert.doesNotMatch(request.promptText, /SERVER_BODY/);
    assert.doesNotMatch(request.promptText, /\$\{/, 'no seed reference reaches the model');

    const runLog = JSON.parse(readFileSync(log, 'utf8'));
    assert.deepEqual(
      runLog.steps.map((s: { id: string; status: string }) => [s.id, s.status]),
      [
        ['search', 'success'],
        ['fetch', 'success'],
        ['summarize', 'success'],
      ],
    );
    assert.deepEqual(runLog.steps[0].input, { query: 'createServer', path: 'src', max_results: 10 }, 'input defaults and types: max_matches is the number 10');
    assert.deepEqual(runLog.output.sources_count, 3);
  });

  it('runs the fallback when the summary fails: the outline of the source stands in for it', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'model not loaded', type: 'invalid_request_error' } } });
    const result = await run('--input', 'topic=createServer', '--input', 'folder=src', '--input', 'max_matches=1');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 1, 'a 400 is not retried');
    assert.match(result.stderr, /step "summarize" failed .*used its fallback/);
    const output = yaml.load(result.stdout) as { summary: { kind: string; files: Array<{ path: string }> }; sources_count: number };
    assert.equal(output.summary.kind, 'file-summaries', 'get_file_summaries gave the summary');
    assert.deepEqual(
      output.summary.files.map((f) => f.path),
      ['src/main.ts'],
    );
    assert.equal(output.sources_count, 1, 'max_matches=1 reached search_text');
  });

  it('skips the read and the summary when nothing matches (the condition), without calling the model', async () => {
    const result = await run('--input', 'topic=NoSuchThingAnywhere');
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 0);
    assert.match(result.stderr, /fetch .*condition "search_results\.length > 0" is false/);
    // `source` reads the first of no matches: no value, so the field is left out.
    assert.deepEqual(yaml.load(result.stdout), { summary: null, sources_count: 0 });
  });

  it('asks for the declared input it needs, pointing at its line in the seed file', async () => {
    const result = await run();
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /research-summarize-store\.yaml:11:10: input_variables\[0\] \(topic\): the required input "topic" is missing \(What to research: text to search for\)/,
    );
    assert.equal(server.requests.length, 0);
  });
});
