import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAiTestServer } from '../support/openaiServer';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';

const FILES = {
  'src/mod/core.ts': 'export function core() {\n  return "CORE_BODY";\n}\n',
  'src/mod/helper.ts': 'export const helper = "HELPER_BODY";\n',
  'src/mod/extra.ts': 'export const extra = "EXTRA_BODY";\n',
};
const SEED = join(__dirname, '..', 'fixtures', 'seed-001-module-design.yaml');

/**
 * A reasoning model opens every answer with its thinking, and thinking mentions files it then rejects.
 * The selector must choose from the answer alone, and stdout must carry the answer alone.
 */
describe("codewiki run: a reasoning model's thinking is never the answer", () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const env = () => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', CODEWIKI_TOOL_MODEL: 'tool-model' });

  beforeEach(async () => {
    server = new OpenAiTestServer();
    await server.start();
    ws = tempWorkspace(FILES);
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('<think> blocks split across chunks: the selector takes the two files the answer names, stdout gets the answer only', async () => {
    server.respondWith((request) =>
      request.body?.model === 'tool-model'
        ? {
            chunks: [
              '<thi',
              'nk>src/mod/core.ts looks central, but the question is about helpers… not src/mod/core.ts.</th',
              'ink>\n',
              'src/mod/helper.ts\nsrc/mod/extra.ts',
            ],
          }
        : { chunks: ['<think>I should cite src/mod/core.ts', ' here.</think>', '设计', '文档'] },
    );
    const log = join(ws.root, 'run-log.json');
    const result = await runCli(['run', SEED, '--workspace', ws.root, '--input', 'module_path=src/mod', '--log', log], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '设计文档\n');
    assert.match(result.stderr, /… thinking \(not printed/);
    const final = server.requests[1].promptText;
    assert.match(final, /HELPER_BODY/);
    assert.match(final, /EXTRA_BODY/);
    assert.doesNotMatch(final, /CORE_BODY/, 'a file named only in the thinking is not selected');
    const runLog = JSON.parse(readFileSync(log, 'utf8'));
    assert.equal(runLog.output, '设计文档');
  });

  it('reasoning_content (thinking sent apart on the wire) never reaches stdout or the selector', async () => {
    server.respondWith((request) =>
      request.body?.model === 'tool-model'
        ? { reasoningChunks: ['Maybe src/mod/core.ts?'], chunks: ['src/mod/extra.ts'] }
        : { reasoningChunks: ['Plan: mention ', 'SECRET_PLAN'], chunks: ['答案'] },
    );
    const result = await runCli(['run', SEED, '--workspace', ws.root, '--input', 'module_path=src/mod'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, '答案\n');
    assert.doesNotMatch(result.stderr, /SECRET_PLAN/);
    const final = server.requests[1].promptText;
    assert.match(final, /EXTRA_BODY/);
    assert.doesNotMatch(final, /CORE_BODY|HELPER_BODY/);
  });

  it("a selector answer that is all thinking is read as no answer, and both are said (the selector's visible fallback applies)", async () => {
    server.respondWith((request) => (request.body?.model === 'tool-model' ? { chunks: ['<think>src/mod/helper.ts is the one'] } : { text: 'ok' }));
    const result = await runCli(['run', SEED, '--workspace', ws.root, '--input', 'module_path=src/mod'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /the model only thought \(\d+ characters\) and wrote no answer/);
    assert.match(result.stderr, /the model named none of the 3 summarised files/);
  });
});
