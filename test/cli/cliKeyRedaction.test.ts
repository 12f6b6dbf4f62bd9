import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { echoKeyIn401, echoKeyInEveryForm, echoKeyMidStream } from '../support/keyEchoingTurns';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli, type CliResult } from '../support/runCli';

/** No `sk-` prefix, so the old key-shaped mask cannot be what hides it. */
const KEY = 'local-Zq8vN3+pXk7/Lw2Rt9=';
const FORMS = [KEY, encodeURIComponent(KEY)];

/** Promise 3 through the CLI: a server that quotes the key puts it neither on screen nor in the `--log` file. */
describe('codewiki run against a server that echoes the API key', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let logFile: string;

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace({ 'src/mod/core.ts': 'export const core = 1;\n', 'src/mod/helper.ts': 'export const helper = 2;\n' });
    logFile = join(ws.root, 'run-log.json');
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  const run = (prompt: string, input: string) =>
    runCli(['run', prompt, '--workspace', ws.root, '--input', input, '--log', logFile], {
      env: { CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', CODEWIKI_TOOL_MODEL: 'tool-model', CODEWIKI_API_KEY: KEY, CODEWIKI_MAX_RETRIES: '0' },
    });

  /** Returns the run log's text after checking that no sink holds the key in any form. */
  function assertNoKeyAnywhere(result: CliResult): string {
    assert.ok(
      server.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`),
      'the server received the key it echoes',
    );
    const log = readFileSync(logFile, 'utf8');
    for (const [where, text] of Object.entries({ stderr: result.stderr, stdout: result.stdout, '--log file': log })) {
      for (const form of FORMS) assert.ok(!text.includes(form), `the key (${form}) is in ${where}:\n${text}`);
    }
    return log;
  }

  it('a 401 quoting the key: exit 1, "check the API key", and the key nowhere', async () => {
    server.respondWith(echoKeyIn401);
    const result = await run('explain-file', 'file=src/mod/core.ts');
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /final answer failed: 401 from http:\/\/127\.0\.0\.1:\d+\/v1: check the API key/);
    const log = JSON.parse(assertNoKeyAnywhere(result));
    assert.match(log.error, /401 from .*check the API key/);
  });

  it('an error event mid-answer quoting the key: the partial answer is printed, the error says [redacted]', async () => {
    server.respondWith(echoKeyMidStream(['The file', ' defines']));
    const result = await run('explain-file', 'file=src/mod/core.ts');
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, 'The file defines');
    assert.match(result.stderr, /final answer failed: Request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: Stream aborted: key \[redacted\] was revoked/);
    const log = JSON.parse(assertNoKeyAnywhere(result));
    assert.equal(log.output, 'The file defines');
    assert.match(log.error, /key \[redacted\] was revoked/);
  });

  it('an LLM-tool step whose server quotes the key in every form: the step error, the run error and the log are clean', async () => {
    server.respondWith(echoKeyInEveryForm(400));
    const result = await run('module-design-doc', 'module_path=src/mod');
    assert.equal(result.code, 1, result.stderr);
    assert.equal(server.requests[0]?.body?.model, 'tool-model', 'the failing request was the LLM-tool step');
    assert.match(
      result.stderr,
      /✗ selection \(file_selector_llm_tool\) failed .*: 400 from .*: the server rejected the request: Key \[redacted\] rejected \(sent as \?key=\[redacted\]\)/,
    );
    const log = JSON.parse(assertNoKeyAnywhere(result));
    const selection = log.steps.find((s: { id: string }) => s.id === 'selection');
    assert.match(selection.error, /Key \[redacted\] rejected/);
  });
});
