import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { actionPromptJsonSchema } from '../../src/core/actionPrompt/actionPromptJsonSchema';
import { completionsAt, diagnoseDocument } from '../../src/core/authoring';
import { authoringWorkspace, cursor } from './authoringFixtures';

describe('completion in action prompts and agent definitions', () => {
  let ws: Awaited<ReturnType<typeof authoringWorkspace>>;
  before(async () => {
    ws = await authoringWorkspace();
  });
  after(() => ws.cleanup());

  const complete = (marked: string, kind: 'prompt' | 'agent' = 'prompt', file = '/ws/.codewiki/prompts/draft.yaml') => {
    const { text, offset } = cursor(marked);
    return completionsAt(text, file, kind, offset, ws.env);
  };
  const labels = (items: ReturnType<typeof complete>) => items.map((i) => i.label);

  it('offers the fields that are not written yet, at the top and in a step', () => {
    const top = complete('title: Draft\n‸');
    assert.ok(labels(top).includes('tool_chain') && labels(top).includes('input_variables'));
    assert.ok(!labels(top).includes('title'), 'title is already there');
    assert.equal(top.find((i) => i.label === 'tool_chain')?.insertText, 'tool_chain: ');
    const step = complete('title: Draft\ntool_chain:\n  - tool: read_file\n    ‸');
    assert.ok(
      ['output_variable', 'condition', 'for_each', 'retry', 'on_error'].every((f) => labels(step).includes(f)),
      labels(step).join(),
    );
    assert.ok(!labels(step).includes('tool'));
  });

  it('offers tool names with their descriptions, and other prompts for nested calls', () => {
    const items = complete('title: Draft\ntool_chain:\n  - tool: rea‸');
    const readFile = items.find((i) => i.label === 'read_file');
    assert.ok(readFile, labels(items).join());
    assert.equal(readFile.kind, 'tool');
    assert.match(readFile.detail ?? '', /Read one text file/);
    assert.match(readFile.documentation ?? '', /`path`/);
    const typed = 'title: Draft\ntool_chain:\n  - tool: '.length;
    assert.deepEqual({ start: readFile.start, end: readFile.end }, { start: typed, end: typed + 3 }, 'replaces what was typed');
    const outline = items.find((i) => i.label === 'outline');
    assert.equal(outline?.kind, 'prompt');
    assert.match(outline?.detail ?? '', /^action prompt — .*Outlines a topic/);
    assert.ok(
      items.some((i) => i.label === 'explain-file' && i.kind === 'prompt'),
      'built-in prompts too',
    );
    assert.ok(!labels(items).includes('draft'), 'a prompt cannot call itself');
  });

  it("offers the tool's parameters under input:, and the file's own llm_tools", () => {
    const params = complete('title: Draft\ntool_chain:\n  - tool: read_file\n    input:\n      path: a\n      ‸');
    assert.deepEqual(labels(params).sort(), ['end_line', 'start_line']);
    const own = complete(
      'title: Draft\nllm_tools:\n  - name: judge\n    description: Judges\n    parameters:\n      - name: claim\n    human: "{claim}"\ntool_chain:\n  - tool: judge\n    input:\n      ‸',
    );
    assert.deepEqual(labels(own), ['claim']);
    assert.ok(
      complete('title: Draft\nllm_tools:\n  - name: judge\n    description: Judges\n    human: x\ntool_chain:\n  - tool: j‸').some(
        (i) => i.label === 'judge' && i.kind === 'tool',
      ),
    );
  });

  it('offers the variables in scope after {', () => {
    const text = [
      'title: Draft',
      'input_variables:',
      '  - name: topic',
      'tool_chain:',
      '  - tool: list_files',
      '    output_variable: files',
      '  - tool: read_file',
      '    for_each: "{files}"',
      '    as: file',
      '    input:',
      '      path: "{‸"',
      '    output_variable: contents',
      'llm_prompt_template:',
      '  human: "{topic}"',
    ].join('\n');
    const items = complete(text);
    assert.deepEqual(labels(items).sort(), ['file', 'files', 'index', 'topic'], "not the step's own output");
    assert.equal(items.find((i) => i.label === 'files')?.insertText, 'files}');
    assert.match(items.find((i) => i.label === 'files')?.detail ?? '', /output of step files \(list_files\)/);
    const final = complete(text.replace('path: "{‸"', 'path: "{file}"').replace('human: "{topic}"', 'human: |\n    About {to‸'));
    assert.deepEqual(labels(final).sort(), ['contents', 'files', 'topic']);
    assert.equal(complete('title: Draft\nllm_prompt_template:\n  human: "{{‸"').length, 0, '{{ is a literal brace');
  });

  it('offers input types and other enum values', () => {
    assert.deepEqual(labels(complete('title: Draft\ninput_variables:\n  - name: a\n    type: ‸')), [
      'text',
      'multiline',
      'path',
      'number',
      'boolean',
      'select',
    ]);
    assert.deepEqual(labels(complete('title: Draft\ntool_chain:\n  - tool: read_file\n    on_error: ‸')).sort(), ['abort', 'continue', 'fallback']);
    assert.deepEqual(labels(complete('title: Draft\nagent_callable: ‸')), ['true', 'false']);
  });

  it('inside a fallback step offers only the keys the loader accepts there', () => {
    const misplaced = ['condition', 'for_each', 'as', 'concurrency', 'on_error', 'fallback', 'run_if_skipped', 'output_variable'];
    const head = 'title: Draft\ntool_chain:\n  - tool: read_file\n    input:\n      path: a\n    on_error: fallback\n';
    const places = {
      'a list under fallback:': `${head}    fallback:\n      - tool: list_files\n        ‸`,
      'a single step under fallback:': `${head}    fallback:\n      tool: list_files\n      ‸`,
      'on_error: {fallback: …}': 'title: Draft\ntool_chain:\n  - tool: read_file\n    on_error:\n      fallback:\n        - tool: list_files\n          ‸',
    };
    for (const [where, marked] of Object.entries(places)) {
      const offered = labels(complete(marked));
      assert.deepEqual(
        offered.filter((f) => misplaced.includes(f)),
        [],
        where,
      );
      assert.ok(
        ['id', 'title', 'input', 'select', 'retry', 'timeout'].every((f) => offered.includes(f)),
        `${where}: ${offered.join()}`,
      );
    }
    // Every key completion leaves out is one the loader rejects in a fallback step, and none it offers is.
    const sample: Record<string, string> = {
      id: 'again',
      title: 'Again',
      input: '{ path: b }',
      select: '"$.files"',
      retry: '2',
      timeout: '5s',
      condition: '"true"',
      for_each: '"{x}"',
      as: 'x',
      concurrency: '2',
      on_error: 'abort',
      fallback: '{ tool: list_files }',
      run_if_skipped: 'true',
      output_variable: 'x',
    };
    const offered = labels(complete(places['a list under fallback:']));
    assert.deepEqual([...offered, ...misplaced].sort(), Object.keys(sample).sort(), 'every key is sampled');
    for (const [key, value] of Object.entries(sample)) {
      const yaml = `${head}    fallback:\n      - tool: list_files\n        ${key}: ${value}\n`;
      const problems = diagnoseDocument(yaml, join(ws.root, '.codewiki/prompts/draft.yaml'), 'prompt', ws.env).filter(
        (p) => p.severity === 'error' && p.field.startsWith('tool_chain[0].fallback[0]'),
      );
      assert.equal(problems.length > 0, misplaced.includes(key), `${key}: ${problems.map((p) => p.message).join('; ')}`);
    }
  });

  it('the generated editor schema gives fallback steps only their own keys', () => {
    const schema = actionPromptJsonSchema() as {
      $defs: Record<string, { properties: Record<string, unknown>; additionalProperties: boolean }>;
      properties: { tool_chain: { items: { properties: Record<string, unknown> } } };
    };
    const fallbackStep = schema.$defs.fallbackStep;
    assert.deepEqual(Object.keys(fallbackStep.properties).sort(), ['id', 'input', 'retry', 'select', 'timeout', 'title', 'tool']);
    assert.equal(fallbackStep.additionalProperties, false, 'the YAML extension flags a misplaced key too');
    const step = schema.properties.tool_chain.items.properties;
    assert.ok(
      ['condition', 'for_each', 'output_variable', 'fallback'].every((k) => k in step),
      'a tool_chain step keeps every key',
    );
    assert.match(JSON.stringify(step.fallback), /#\/\$defs\/fallbackStep/);
    assert.match(JSON.stringify(step.on_error), /#\/\$defs\/fallbackStep/);
  });

  it('in an agent definition: its fields, agent tools and its inputs', () => {
    const file = '/ws/.codewiki/agents/helper.yaml';
    const fields = complete('name: helper\n‸', 'agent', file);
    assert.ok(['description', 'inputs', 'system', 'tools', 'max_iterations'].every((f) => labels(fields).includes(f)));
    const tools = complete('name: helper\ntools:\n  - read_file\n  - ‸', 'agent', file);
    assert.ok(labels(tools).includes('search_text') && labels(tools).includes('write_file'), labels(tools).join());
    assert.ok(!labels(tools).includes('summarize_llm_tool'), 'workflow-only tools are not offered to agents');
    assert.deepEqual(labels(complete('name: helper\ninputs:\n  - name: question\n    type: ‸', 'agent', file)), [
      'string',
      'number',
      'integer',
      'boolean',
      'string[]',
      'number[]',
    ]);
    assert.deepEqual(
      labels(complete('name: helper\ninputs:\n  - name: question\n    type: string\n    description: q\nsystem: |\n  Answer {‸', 'agent', file)),
      ['question'],
    );
  });
});
