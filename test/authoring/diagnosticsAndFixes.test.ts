import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { formatDiagnostic } from '../../src/core/yaml/diagnostics';
import { locatedDiagnostics, quickFixesFor, type TextEdit } from '../../src/core/authoring';
import { runCli } from '../support/runCli';
import { authoringWorkspace } from './authoringFixtures';

const BROKEN = [
  'title: Broken',
  'input_variables:',
  '  - name: topic',
  'tool_chain:',
  '  - tool: raed_file',
  '    input:',
  '      path: "{topic}"',
  '    output_variable: text',
  'llm_prompt_template:',
  '  human: "{text} {audience}"',
  '',
].join('\n');

function apply(text: string, edits: TextEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

describe('diagnostics and quick fixes', () => {
  let ws: Awaited<ReturnType<typeof authoringWorkspace>>;
  before(async () => {
    ws = await authoringWorkspace({ '.codewiki/prompts/broken.yaml': BROKEN });
  });
  after(() => ws.cleanup());

  it('reports what codewiki validate reports, line for line, and underlines the value', async () => {
    const file = join(ws.root, '.codewiki/prompts/broken.yaml');
    const problems = locatedDiagnostics(BROKEN, file, 'prompt', ws.env);
    const cli = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(cli.code, 1);
    assert.deepEqual(problems.map(formatDiagnostic), cli.stdout.trim().split('\n'));
    const tool = problems.find((p) => p.field === 'tool_chain[0].tool');
    assert.equal(tool && BROKEN.slice(tool.start, tool.end), 'raed_file');
    assert.deepEqual(tool && [tool.line, tool.column], [5, 11]);
  });

  it('the same for an agent definition', async () => {
    const text = 'name: helper\ndescription: Helps\nsystem: Answer {question}\ntools: [read_file, serch_text]\n';
    const file = join(ws.root, '.codewiki/agents/helper.yaml');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    const problems = locatedDiagnostics(text, file, 'agent', ws.env);
    assert.deepEqual(
      problems.map((p) => p.field),
      ['system', 'tools[1]'],
    );
    const cli = await runCli(['validate', file, '--workspace', ws.root]);
    assert.deepEqual(problems.map(formatDiagnostic), cli.stdout.trim().split('\n'));
  });

  it('offers the nearest tool name for an unknown tool', () => {
    const problem = locatedDiagnostics(BROKEN, 'broken.yaml', 'prompt', ws.env).find((p) => /unknown tool/.test(p.message))!;
    const fixes = quickFixesFor(BROKEN, 'broken.yaml', 'prompt', problem, ws.env);
    assert.equal(fixes[0].title, 'Change to "read_file"');
    assert.equal(fixes[0].preferred, true);
    const fixed = apply(BROKEN, fixes[0].edits);
    assert.match(fixed, /- tool: read_file\n/);
    assert.ok(!locatedDiagnostics(fixed, 'broken.yaml', 'prompt', ws.env).some((p) => /unknown tool/.test(p.message)));
  });

  it('declares an undeclared variable as an input', () => {
    const problem = locatedDiagnostics(BROKEN, 'broken.yaml', 'prompt', ws.env).find((p) => /\{audience\}/.test(p.message))!;
    const [fix] = quickFixesFor(BROKEN, 'broken.yaml', 'prompt', problem, ws.env);
    assert.equal(fix.title, 'Declare "audience" in input_variables');
    const fixed = apply(BROKEN, fix.edits);
    assert.match(fixed, /input_variables:\n {2}- name: topic\n {2}- name: audience\n {4}type: text\ntool_chain:/);
    assert.ok(!locatedDiagnostics(fixed, 'broken.yaml', 'prompt', ws.env).some((p) => /audience/.test(p.message)));

    const none = 'title: No inputs\ntool_chain:\n  - tool: read_file\n    input:\n      path: "{where}"\n';
    const missing = locatedDiagnostics(none, 'none.yaml', 'prompt', ws.env).find((p) => /\{where\}/.test(p.message))!;
    const created = apply(none, quickFixesFor(none, 'none.yaml', 'prompt', missing, ws.env)[0].edits);
    assert.match(created, /^title: No inputs\ninput_variables:\n {2}- name: where\n {4}type: text\ntool_chain:/);
    assert.deepEqual(locatedDiagnostics(created, 'none.yaml', 'prompt', ws.env), []);
  });

  it('fixes an agent definition: its nearest tool and an undeclared input', () => {
    const text = 'name: helper\ndescription: Helps\nsystem: Answer {question}\ntools:\n  - read_file\n  - serch_text\n';
    const problems = locatedDiagnostics(text, 'helper.yaml', 'agent', ws.env);
    const tool = quickFixesFor(
      text,
      'helper.yaml',
      'agent',
      problems.find((p) => p.field === 'tools[1]')!,
      ws.env,
    );
    assert.equal(tool[0].title, 'Change to "search_text"');
    const input = quickFixesFor(
      text,
      'helper.yaml',
      'agent',
      problems.find((p) => p.field === 'system')!,
      ws.env,
    );
    const fixed = apply(apply(text, tool[0].edits), input[0].edits);
    assert.deepEqual(locatedDiagnostics(fixed, 'helper.yaml', 'agent', ws.env), [], fixed);
  });
});
