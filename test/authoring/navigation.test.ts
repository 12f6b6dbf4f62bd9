import { strict as assert } from 'node:assert';
import { definitionAt, hoverAt } from '../../src/core/authoring';
import { authoringWorkspace } from './authoringFixtures';

const PROMPT = [
  'title: Explain',
  'input_variables:',
  '  - name: file',
  '    type: path',
  '    description: The file to explain',
  'tool_chain:',
  '  - id: content',
  '    tool: read_file',
  '    input:',
  '      path: "{file}"',
  '    output_variable: file_content',
  'llm_prompt_template:',
  '  human: |',
  '    Explain {file_content}',
  '',
].join('\n');
const FILE = '/ws/.codewiki/prompts/explain.yaml';

describe('hover and go to definition', () => {
  let ws: Awaited<ReturnType<typeof authoringWorkspace>>;
  before(async () => {
    ws = await authoringWorkspace();
  });
  after(() => ws.cleanup());

  it("shows a tool's docs and parameters on its name", () => {
    const at = PROMPT.indexOf('read_file') + 3;
    const hover = hoverAt(PROMPT, FILE, 'prompt', at, ws.env);
    assert.ok(hover);
    assert.match(hover.markdown, /\*\*read_file\*\* — tool/);
    assert.match(hover.markdown, /\| `path` \| `string` \| File path/);
    assert.deepEqual([hover.start, hover.end], [PROMPT.indexOf('read_file'), PROMPT.indexOf('read_file') + 'read_file'.length]);
  });

  it("shows a parameter's schema on an input key", () => {
    const hover = hoverAt(PROMPT, FILE, 'prompt', PROMPT.indexOf('path: "') + 1, ws.env);
    assert.match(hover?.markdown ?? '', /\*\*path\*\* \(required\): `string` — parameter of `read_file`/);
  });

  it('shows where a variable comes from, and jumps to the step that produces it', () => {
    const at = PROMPT.indexOf('{file_content}') + 3;
    const hover = hoverAt(PROMPT, FILE, 'prompt', at, ws.env);
    assert.match(hover?.markdown ?? '', /output of step `content` \(tool `read_file`, tool_chain\[0\]\) \(line 11\)/);
    const target = definitionAt(PROMPT, FILE, 'prompt', at);
    assert.deepEqual(target && PROMPT.slice(target.start, target.end), 'file_content');
    assert.equal(target && PROMPT.slice(0, target.start).split('\n').length, 11);

    const input = definitionAt(PROMPT, FILE, 'prompt', PROMPT.indexOf('{file}') + 2);
    assert.equal(input && PROMPT.slice(input.start, input.end), 'file');
    assert.equal(input && PROMPT.slice(0, input.start).split('\n').length, 3, 'the input declaration');
    assert.match(hoverAt(PROMPT, FILE, 'prompt', PROMPT.indexOf('{file}') + 2, ws.env)?.markdown ?? '', /input \(`path`\) — The file to explain/);
  });

  it('describes a field on its key', () => {
    const hover = hoverAt(PROMPT, FILE, 'prompt', PROMPT.indexOf('    tool: read_file') + 5, ws.env);
    assert.match(hover?.markdown ?? '', /\*\*tool\*\* \(required\) — A built-in tool, an llm_tools entry, or another action prompt by id/);
    const condition = 'title: x\ntool_chain:\n  - tool: read_file\n    condition: "true"\n';
    assert.match(hoverAt(condition, FILE, 'prompt', condition.indexOf('condition') + 1, ws.env)?.markdown ?? '', /A safe expression over variables/);
  });
});
