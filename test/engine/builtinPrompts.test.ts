import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { OpenAiTestServer } from '../support/openaiServer';
import { modelsFor, tempWorkspace } from '../support/engineBuilders';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');
const FILES = {
  'lib/README.md': '# lib\nA tiny library.\n',
  'lib/index.ts': '/** Entry point. */\nexport { parse } from "./parse";\n',
  'lib/parse.ts': 'export function parse(s: string) {\n  return s.split(",");\n}\n',
};
const INPUTS: Record<string, Record<string, unknown>> = {
  'module-design-doc': { module_path: 'lib' },
  'explain-file': { file: 'lib/parse.ts' },
  'folder-readme': { folder: 'lib' },
  'summarize-each-file': { folder: 'lib' },
  'summarize-file': { path: 'lib/parse.ts' },
  'find-code': { question: 'where is the input parsed?' },
  // Before wiki-page: it writes the pages wiki-page then writes the overview of.
  wiki: {},
  'wiki-page': { page: 'index.md' },
};

/** Each built-in prompt loads and runs end to end through the real client against a scripted server. */
describe('built-in action prompts', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  let engine: CodewikiEngine;

  before(async () => {
    server = new OpenAiTestServer((request) =>
      request.body?.model === 'tool-model'
        ? { text: /select the files/.test(request.promptText) ? 'lib/parse.ts, lib/index.ts' : 'A summary of the file.' }
        : { chunks: ['FINAL', ' ANSWER'] },
    );
    await server.start();
    ws = tempWorkspace(FILES);
    engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: modelsFor(server.url) });
  });
  after(async () => {
    await server.close();
    ws.cleanup();
  });

  it('ships at least the four required prompts, all valid', () => {
    const builtins = engine.catalog.entries().filter((e) => e.source === 'builtin');
    assert.deepEqual(
      builtins.filter((e) => !e.prompt).map((e) => e.diagnostics),
      [],
    );
    assert.deepEqual(builtins.map((e) => e.id).sort(), Object.keys(INPUTS).sort());
  });

  for (const [id, inputs] of Object.entries(INPUTS)) {
    it(`${id} runs end to end`, async () => {
      const before = server.requests.length;
      const result = await engine.executor.run(engine.catalog.get(id)!, inputs);
      assert.equal(result.status, 'success', result.log.error);
      assert.ok(
        result.log.steps.every((s) => s.status === 'success'),
        JSON.stringify(result.log.steps.map((s) => [s.id, s.status, s.error])),
      );
      const mine = server.requests.slice(before);
      if (id === 'wiki' || id === 'wiki-page') {
        // Their product is the pages: the tool model's prose, checked and saved between the page's prose markers.
        const page = readFileSync(join(ws.root, '.codewiki', 'wiki', id === 'wiki' ? 'modules/lib.md' : 'index.md'), 'utf8');
        assert.match(
          page,
          /<!-- codewiki:prose:start -->\nA summary of the file\.\n\n_Written by tool-model for commit unknown\._\n<!-- codewiki:prose:end -->/,
        );
        assert.ok(mine.some((r) => r.body?.model === 'tool-model' && /Write the overview for the wiki page/.test(r.promptText)));
      } else if (id === 'summarize-file') {
        assert.equal(result.output, '### lib/parse.ts\nA summary of the file.');
      } else {
        assert.equal(result.output, 'FINAL ANSWER');
        const final = mine.find((r) => r.body?.model === 'main-model')!;
        assert.match(final.promptText, id === 'summarize-each-file' ? /A summary of the file\./ : /s\.split\(","\)/);
      }
    });
  }
});
