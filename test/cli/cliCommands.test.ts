import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';

const VALID =
  'title: Mine\ninput_variables:\n  - name: topic\ntool_chain:\n  - tool: search_text\n    input: { query: "{topic}" }\n    output_variable: hits\nllm_prompt_template:\n  human: "About {topic}: {hits}"\n';
const INVALID = 'title: Broken\ntool_chain:\n  - tool: search_text\n    input: { query: "{nope}" }\n    retry: lots\n';

describe('codewiki validate, list and tools', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace({ '.codewiki/prompts/mine.yaml': VALID, '.codewiki/prompts/team/broken.yaml': INVALID, 'src/a.ts': 'export {}\n' });
  });
  afterEach(() => ws.cleanup());

  it('validate prints every problem as file:line:col and exits 1', async () => {
    const broken = join(ws.root, '.codewiki/prompts/team/broken.yaml');
    const mine = join(ws.root, '.codewiki/prompts/mine.yaml');
    const result = await runCli(['validate', mine, broken, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    const lines = result.stdout.trim().split('\n');
    assert.equal(lines[0], `${mine}: ok`);
    // One pass: the schema error and the reference error in the same step, in file order.
    assert.deepEqual(lines.slice(1), [
      `${broken}:4:21: tool_chain[0].input.query: {nope} is not defined; it must be an input or a step's output_variable`,
      `${broken}:5:12: tool_chain[0].retry: expected number or object`,
    ]);
  });

  it('validate reports each semantic problem once the schema passes', async () => {
    const broken = join(ws.root, 'semantic.yaml');
    require('node:fs').writeFileSync(broken, INVALID.replace('    retry: lots\n', ''));
    const result = await runCli(['validate', broken, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /semantic\.yaml:4:21: tool_chain\[0\]\.input\.query: \{nope\} is not defined/);
  });

  it('validate exits 0 when every file is valid, including the built-ins', async () => {
    const builtins = ['module-design-doc', 'explain-file', 'folder-readme', 'summarize-each-file', 'summarize-file'].map((id) =>
      join(__dirname, '..', '..', 'action-prompts', `${id}.yaml`),
    );
    const result = await runCli(['validate', ...builtins, '--workspace', ws.root]);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(
      result.stdout
        .trim()
        .split('\n')
        .filter((l) => l.endsWith(': ok')).length,
      5,
    );
  });

  it('validate without files: two workspace files of one prompt id, the first wins and the second is an error naming both', async () => {
    const first = join(ws.root, '.codewiki/prompts/mine.yaml');
    const second = join(ws.root, '.codewiki/prompts/team/mine.yaml');
    require('node:fs').writeFileSync(second, VALID.replace('title: Mine', 'title: Mine again'));
    const result = await runCli(['validate', '--workspace', ws.root], { cwd: ws.root });
    assert.equal(result.code, 1);
    // Named from the current directory, as validate names the workspace's files.
    assert.ok(result.stdout.includes('.codewiki/prompts/mine.yaml: ok'), result.stdout);
    assert.ok(result.stdout.includes(`.codewiki/prompts/team/mine.yaml:1:1: the action prompt id "mine" is already defined in ${first}`), result.stdout);
    assert.doesNotMatch(result.stdout, /team\/mine\.yaml: ok/);
  });

  it('list shows built-in and workspace prompts; an invalid one appears with its error (exit 1)', async () => {
    const result = await runCli(['list', '--workspace', ws.root]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /module-design-doc\s+built-in\s+Module design document/);
    assert.match(result.stdout, /mine\s+workspace\s+Mine/);
    // The first problem in file order: the reference error in the same step as the schema error is found too.
    assert.match(result.stdout, /broken\s+workspace\s+INVALID — .*broken\.yaml:4:21: tool_chain\[0\]\.input\.query: \{nope\} is not defined/);
    const json = JSON.parse((await runCli(['list', '--json', '--workspace', ws.root])).stdout);
    assert.deepEqual(json.find((e: { id: string }) => e.id === 'broken').valid, false);
  });

  it('tools prints each tool with its JSON Schema, action prompts included', async () => {
    const result = await runCli(['tools', '--json', '--workspace', ws.root]);
    assert.equal(result.code, 0, result.stderr);
    const tools = JSON.parse(result.stdout) as Array<{
      name: string;
      kind: string;
      category: string;
      parameters: { properties: Record<string, unknown>; required?: string[] };
    }>;
    const summaries = tools.find((t) => t.name === 'get_file_summaries')!;
    assert.deepEqual(Object.keys(summaries.parameters.properties).sort(), ['glob', 'max_files', 'path']);
    assert.deepEqual(summaries.parameters.required, ['path']);
    assert.equal(summaries.kind, 'read');
    const selector = tools.find((t) => t.name === 'file_selector_llm_tool')!;
    assert.equal(selector.kind, 'think');
    const nested = tools.find((t) => t.name === 'mine')!;
    assert.equal(nested.category, 'prompt');
    assert.deepEqual(nested.parameters.required, ['topic']);
    const text = await runCli(['tools', '--workspace', ws.root]);
    assert.match(text.stdout, /^search_text  \[search, read, timeout 60 s\]/m);
  });

  it('unknown commands and options are usage errors (exit 2)', async () => {
    assert.equal((await runCli(['frobnicate'])).code, 2);
    const bad = await runCli(['run', 'x', '--nope']);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr, 'codewiki: unknown option --nope; see "codewiki run --help"\n');
  });
});
