import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActionPromptError, type Diagnostic } from '../../src/core/yaml/diagnostics';
import { resolveRunInputs } from '../../src/core/actionPrompt/runInputs';
import { registerFileTools } from '../../src/core/tools/file';
import { Workspace } from '../../src/core/workspace';
import { compileYaml, tempWorkspace, testRegistry } from '../support/engineBuilders';

const registry = testRegistry();

function diagnosticsOf(yaml: string): Diagnostic[] {
  try {
    compileYaml(yaml, registry, 'bad', 'prompts/bad.yaml');
  } catch (error) {
    assert.ok(error instanceof ActionPromptError, `expected ActionPromptError, got ${error}`);
    return error.diagnostics;
  }
  assert.fail('expected the file to be rejected');
}

function only(yaml: string): Diagnostic {
  const diagnostics = diagnosticsOf(yaml);
  assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics, null, 2));
  return diagnostics[0];
}

describe('loading action prompts: bad input is located by file, line and field', () => {
  it('loads seed 001 verbatim', async () => {
    const ws = tempWorkspace();
    const withFiles = testRegistry();
    registerFileTools(withFiles, await Workspace.open(ws.root));
    ws.cleanup();
    const prompt = compileYaml(readFileSync(join(__dirname, '..', 'fixtures', 'seed-001-module-design.yaml'), 'utf8'), withFiles, 'seed');
    assert.deepEqual(
      prompt.steps.map((s) => s.tool),
      ['get_file_summaries', 'file_selector_llm_tool', 'get_files_content_by_list'],
    );
    assert.deepEqual(prompt.dependencies, [[], [0], [1]]);
    assert.deepEqual(
      prompt.inputs.map((i) => [i.name, i.required]),
      [
        ['module_path', true],
        ['task_description', false],
      ],
    );
  });

  it('invalid YAML', () => {
    const d = only('title: x\ntool_chain:\n  - tool: echo\n   input: [unclosed\n');
    assert.equal(d.file, 'prompts/bad.yaml');
    assert.match(d.message, /invalid YAML/);
    assert.equal(d.line, 4);
  });

  it('an unknown tool, naming the known ones', () => {
    const d = only('title: x\ntool_chain:\n  - tool: echo\n    input: hi\n    output_variable: a\n  - tool: ech0\n    input: "{a}"\n');
    assert.deepEqual([d.line, d.column, d.field], [6, 11, 'tool_chain[1].tool']);
    assert.match(d.message, /unknown tool "ech0"; did you mean "echo"/);
    assert.doesNotMatch(d.message, /read_file/, 'only the nearest names, not every tool');
  });

  it('an unknown field, pointing at the key', () => {
    const d = only('title: x\ntool_chain:\n  - tool: echo\n    input: hi\n    outptu_variable: a\n');
    assert.deepEqual([d.line, d.column, d.field], [5, 5, 'tool_chain[0].outptu_variable']);
    assert.match(d.message, /unknown field "outptu_variable"/);
  });

  it('an undefined variable', () => {
    const d = only('title: x\ninput_variables:\n  - name: topic\ntool_chain:\n  - tool: echo\n    input: "{topik}"\n');
    assert.deepEqual([d.line, d.field], [6, 'tool_chain[0].input']);
    assert.match(d.message, /\{topik\} is not defined.*defined: topic/);
  });

  it('an undefined variable in the final prompt', () => {
    const d = only('title: x\nllm_prompt_template:\n  human: "Hi {who}"\n');
    assert.deepEqual([d.line, d.field], [3, 'llm_prompt_template.human']);
  });

  it('a cycle', () => {
    const d = only(
      'title: x\ntool_chain:\n  - id: first\n    tool: echo\n    input: "{b}"\n    output_variable: a\n  - id: second\n    tool: echo\n    input: "{a}"\n    output_variable: b\n',
    );
    assert.match(d.message, /cycle: first → second → first/);
    assert.equal(d.line, 3);
  });

  it('wrong field types and a bad input type', () => {
    const diagnostics = diagnosticsOf(
      'title: x\ninput_variables:\n  - name: n\n    type: integer\ntool_chain:\n  - tool: echo\n    input: hi\n    retry: many\n',
    );
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.field]),
      [
        [4, 'input_variables[0].type'],
        [8, 'tool_chain[0].retry'],
      ],
    );
  });

  it('a tool parameter that does not exist, and a missing required one', () => {
    const diagnostics = diagnosticsOf('title: x\ntool_chain:\n  - tool: wait\n    input:\n      msec: 5\n');
    assert.deepEqual(diagnostics.map((d) => d.field).sort(), ['tool_chain[0].input', 'tool_chain[0].input.msec']);
    assert.ok(diagnostics.some((d) => /no parameter "msec"; its parameters are: ms, value/.test(d.message)));
    assert.ok(diagnostics.some((d) => /needs the parameter "ms"/.test(d.message)));
  });

  it('a condition with a function call', () => {
    const d = only('title: x\ntool_chain:\n  - tool: echo\n    input: hi\n    condition: "process.exit()"\n');
    assert.equal(d.field, 'tool_chain[0].condition');
    assert.match(d.message, /CallExpression is not allowed/);
  });

  it('a lone brace in a template', () => {
    const d = only(`title: x\nllm_prompt_template:\n  human: 'JSON like {"a": 1}'\n`);
    assert.match(d.message, /write \{\{ and \}\} for literal braces/);
  });

  it('a duplicated output variable', () => {
    const d = only(
      'title: x\ntool_chain:\n  - tool: echo\n    input: a\n    output_variable: out\n    id: one\n  - tool: echo\n    input: b\n    output_variable: out\n    id: two\n',
    );
    assert.match(d.message, /"out" is already defined/);
    assert.equal(d.line, 9);
  });

  it('reports every problem, not just the first', () => {
    const diagnostics = diagnosticsOf('title: x\ntool_chain:\n  - tool: nope\n  - tool: echo\n    input: "{missing}"\n');
    assert.equal(diagnostics.length, 2);
  });
});

describe('run inputs are checked before anything runs', () => {
  const prompt = compileYaml(
    'title: x\ninput_variables:\n  - name: path\n    type: path\n  - name: n\n    type: number\n    default: 2\n  - name: mode\n    type: select\n    options: [fast, deep]\n    default: fast\n  - name: flag\n    type: boolean\n',
    registry,
    'inputs',
    'prompts/inputs.yaml',
  );

  it('a missing required input names the input and where it is declared', async () => {
    const error = await resolveRunInputs(prompt, {}).catch((e) => e);
    assert.ok(error instanceof ActionPromptError);
    assert.equal(error.diagnostics.length, 1);
    const d = error.diagnostics[0];
    assert.deepEqual([d.file, d.line, d.field], ['prompts/inputs.yaml', 3, 'input_variables[0] (path)']);
    assert.match(d.message, /required input "path" is missing/);
  });

  it('a wrong input type', async () => {
    const error = await resolveRunInputs(prompt, { path: 'src', n: 'two', mode: 'slow', flag: 'maybe', extra: '1' }).catch((e) => e);
    assert.ok(error instanceof ActionPromptError);
    const messages = error.diagnostics.map((d) => d.message);
    assert.ok(messages.some((m) => /input "n": expected a number, got "two"/.test(m)));
    assert.ok(messages.some((m) => /expected one of "fast", "deep", got "slow"/.test(m)));
    assert.ok(messages.some((m) => /expected true or false, got "maybe"/.test(m)));
    assert.ok(messages.some((m) => /unknown input "extra"/.test(m)));
  });

  it('converts strings and applies defaults', async () => {
    assert.deepEqual(await resolveRunInputs(prompt, { path: 'src', flag: 'yes' }), { path: 'src', n: 2, mode: 'fast', flag: true });
    assert.deepEqual(await resolveRunInputs(prompt, { path: 'src', n: '7.5', mode: 'deep' }), { path: 'src', n: 7.5, mode: 'deep', flag: false });
  });
});
