import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

/** The file selector gets the summaries inside a longer text, not as the tool's value. */
const TEXT_SUMMARIES = `title: Text summaries
input_variables:
  - name: folder
    type: path
tool_chain:
  - id: summaries
    tool: get_file_summaries
    input: { path: "{folder}" }
    output_variable: summaries
  - id: selection
    tool: file_selector_llm_tool
    input:
      file_summaries: "Project files:\\n{summaries}"
      task_description: the entry point
      max_files: 3
    output_variable: picked
  - id: contents
    tool: get_files_content_by_list
    input: "{picked}"
    output_variable: code
llm_prompt_template:
  human: "{code}"
`;

/** Twelve files, so max_files cuts the list; cli.ts has no declarations, so its summary is its opening lines. */
function moduleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 1; i <= 12; i++) files[`src/mod/file${String(i).padStart(2, '0')}.ts`] = `/** File ${i}. */\nexport function f${i}() {\n  return ${i};\n}\n`;
  files['src/mod/cli.ts'] =
    "#!/usr/bin/env node\nimport { main } from './main';\nmain(process.argv.slice(2)).then(\n  (code) => {\n    process.exitCode = code;\n  },\n);\n";
  return files;
}

describe('codewiki run --dry-run shows what a real run would do', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace(moduleFiles());
  });
  afterEach(() => ws.cleanup());

  it('prints the prompts of nested prompts too, labelled with the calling step', async () => {
    const result = await runCli(['run', 'summarize-each-file', '--dry-run', '--workspace', ws.root, '--input', 'folder=src/mod', '--input', 'max_files=2']);
    assert.equal(result.code, 0, result.stderr);
    const nested = result.stdout.match(/━━━ prompt for step summarize \(summarize_source\) in nested prompt summarize-file \(from step map\) → .*━━━/g) ?? [];
    assert.equal(nested.length, 2, result.stdout);
    assert.match(result.stdout, /File src\/mod\/cli\.ts:/);
    assert.match(result.stdout, /File src\/mod\/file01\.ts:/);
    assert.match(result.stdout, /━━━ prompt for final answer → /);
  });

  it('says when a list was cut: the summaries step and the file selection stand-in', async () => {
    const result = await runCli(['run', 'module-design-doc', '--dry-run', '--workspace', ws.root, '--input', 'module_path=src/mod', '--input', 'max_files=3']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /! dry run: file selection not performed; passing on the first 3 files of the 13 summarised \(the rest were cut: max_files is 3\): src\/mod\/cli\.ts, src\/mod\/file01\.ts, src\/mod\/file02\.ts/,
    );
    const cut = await runCli(['run', 'summarize-each-file', '--dry-run', '--workspace', ws.root, '--input', 'folder=src/mod', '--input', 'max_files=2']);
    assert.match(cut.stderr, /✓ outlines \(get_file_summaries\) .*\n {2}✂ Summaries of src\/mod \(2 of 13 files shown\)\n/);
  });

  it('passes on the same files, in the same order, as a real run whose model names none, also when the summaries arrive as text', async () => {
    writeFileSync(join(ws.root, 'text-summaries.yaml'), TEXT_SUMMARIES);
    const args = ['run', join(ws.root, 'text-summaries.yaml'), '--workspace', ws.root, '--input', 'folder=src/mod'];
    const dry = await runCli([...args, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    const dryFinal = dry.stdout.slice(dry.stdout.indexOf('━━━ prompt for final answer'));
    const dryOrder = [...dryFinal.matchAll(/^===== (\S+) \(/gm)].map((m) => m[1]);
    assert.deepEqual(dryOrder, ['src/mod/cli.ts', 'src/mod/file01.ts', 'src/mod/file02.ts']);

    const server = new OpenAiTestServer();
    await server.start();
    try {
      server.respondWith((request) => ({ text: request.body?.model === 'tool-model' ? 'I cannot tell which files matter.' : 'done' }));
      const real = await runCli(args, { env: { CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', CODEWIKI_TOOL_MODEL: 'tool-model' } });
      assert.equal(real.code, 0, real.stderr);
      const sent = server.requests.find((r) => r.body?.model === 'main-model')!;
      assert.deepEqual(
        [...sent.promptText.matchAll(/===== (\S+) \(/g)].map((m) => m[1]),
        dryOrder,
      );
    } finally {
      await server.close();
    }
  });

  it('summaries show the real lines of the file, braces included', async () => {
    const result = await runCli(['run', 'module-design-doc', '--dry-run', '--workspace', ws.root, '--input', 'module_path=src/mod']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /===== src\/mod\/cli\.ts \(typescript, 7 lines, \d+ bytes\) =====\n#!\/usr\/bin\/env node\nimport \{ main \} from '\.\/main';\nmain\(process\.argv\.slice\(2\)\)\.then\(\n {2}\(code\) => \{\n/,
    );
    assert.match(result.stdout, /===== src\/mod\/file01\.ts \(typescript, 4 lines, \d+ bytes\) =====\nFile 1\.\nexport function f1\(\) \{\n/);
  });
});
