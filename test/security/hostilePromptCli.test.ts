import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_STEPS } from '../../src/core/actionPrompt/stepLimit';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const TEN_THOUSAND_STEPS = `title: Many steps\ntool_chain: [&step { tool: summarize_llm_tool, input: { content: hello } }${', *step'.repeat(9_999)}]\n`;
const LONG_TEXT = `title: Long\ndescription: &long "${'x'.repeat(200_000)}"\noutput: "done"\ntool_chain:\n  - tool: summarize_llm_tool\n    input: { content: [*long, *long, *long, *long, *long, *long] }\n`;
const OVERRIDE = 'title: Override\noutput: "Done \u202Eenod ton"\n';
const ZERO_WIDTH =
  'title: Zero width\ntool_chain:\n  - tool: list_files\n    input: { path: "." }\n    output_variable: files\noutput: "Fi\u200Bles: {files}"\n';

/** `codewiki validate` and `run` as scripts and CI use them, on hostile files: the CLI's own loader, its output, its exit codes. */
describe('codewiki validate and run on hostile prompt files', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  const write = (name: string, text: string) => {
    const file = join(ws.root, name);
    writeFileSync(file, text);
    return file;
  };
  beforeEach(() => (ws = tempWorkspace({ 'src/a.ts': 'export {}\n' })));
  afterEach(() => ws.cleanup());

  it('validate rejects a tool_chain that aliases expand to 10,000 steps, and exits 1', async () => {
    const file = write('many.yaml', TEN_THOUSAND_STEPS);
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      `${file}:2:1: tool_chain: the tool_chain has 10000 steps once aliases are expanded and fallback steps counted (limit ${MAX_STEPS})\n`,
    );
  });

  it('validate rejects text that aliases expand past the limit, at the alias that crosses it, and exits 1', async () => {
    const file = write('long.yaml', LONG_TEXT);
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    assert.equal(result.stdout, `${file}:6:52: the document expands to more than 1048576 characters of text through aliases (limit 1048576)\n`);
  });

  it('run loads nothing and sends nothing when aliases expand to 10,000 steps', async () => {
    const server = new OpenAiTestServer(() => ({ text: 'summary' }));
    await server.start();
    try {
      const file = write('many.yaml', TEN_THOUSAND_STEPS);
      const result = await runCli(['run', file, '--workspace', ws.root], { env: { CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model' } });
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /many\.yaml:2:1: tool_chain: the tool_chain has 10000 steps/);
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });

  it('validate reports a bidirectional override as an error naming the character and field, and exits 1', async () => {
    const file = write('override.yaml', OVERRIDE);
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout,
      `${file}:2:15: output: U+202E RIGHT-TO-LEFT OVERRIDE: a bidirectional control makes the editor show the text in a different order than the model reads it; remove it\n`,
    );
  });

  it('validate prints a zero-width space as a warning and exits 0; run still runs the prompt', async () => {
    const file = write('zero-width.yaml', ZERO_WIDTH);
    const validated = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(validated.code, 0, validated.stdout);
    assert.equal(
      validated.stdout,
      `${file}:6:12: warning: output: U+200B ZERO WIDTH SPACE: an invisible character the model reads; remove it unless it is meant to be there\n${file}: ok (1 warning)\n`,
    );
    const ran = await runCli(['run', file, '--workspace', ws.root, '--dry-run']);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stderr, /✓ files \(list_files\)/);
    assert.match(ran.stderr, /! .*zero-width\.yaml:6:12: warning: output: U\+200B ZERO WIDTH SPACE/, 'run shows the warning too');
  });

  it('validate lists warnings with the errors of a file that fails for another reason', async () => {
    const file = write('both.yaml', ZERO_WIDTH.replace('list_files', 'no_such_tool'));
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.match(lines[0], /both\.yaml:3:11: tool_chain\[0\]\.tool: unknown tool "no_such_tool"/);
    assert.match(lines[1], /both\.yaml:6:12: warning: output: U\+200B ZERO WIDTH SPACE/);
    assert.equal(lines.length, 2);
  });
});
