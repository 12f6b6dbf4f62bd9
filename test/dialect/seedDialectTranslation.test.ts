import { strict as assert } from 'node:assert';
import { compileYaml, runYaml, testRegistry, ToolProbe } from '../support/engineBuilders';

/** The mapping table of docs/action-prompts.md ("Seed 002's chain dialect"), construct by construct, run by the real executor. */
describe('seed 002 dialect: translation and run semantics', () => {
  it("runs the seed's basic structure: ids with -, ${steps.id.output}, .size, conditions, a chain without an input section", async () => {
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: step-1',
      '    tool: echo',
      '    params:',
      '      value: { items: ["${input.value1}", "b"], count: 2 }',
      '    output:',
      '      as: result_a',
      '      select: "$.items"',
      '  - id: step-2',
      '    tool: echo',
      '    params:',
      '      value: "first ${steps.step-1.output[0]} of ${steps.step-1.output.size}, user ${context.user_id}, literal {x}"',
      '    condition: "${steps.step-1.output.size > 0}"',
      '',
    ].join('\n');
    const result = await runYaml(chain, { value1: 'a', user_id: 'u7' });
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, 'first a of 2, user u7, literal {x}');
    const prompt = compileYaml(chain, testRegistry());
    assert.deepEqual(
      prompt.steps.map((s) => [s.id, s.outputVariable]),
      [
        ['step_1', 'result_a'],
        ['step_2', 'step_2'],
      ],
    );
    assert.equal(prompt.steps[1].condition?.source, 'result_a.length > 0');
    assert.deepEqual(
      prompt.inputs.map((i) => [i.name, i.type, i.required]),
      [
        ['value1', 'text', true],
        ['user_id', 'text', true],
      ],
      'without an input section, each ${input.x} and ${context.x} is a required text input',
    );
  });

  it('reads a field really named size with ["size"]', async () => {
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: a',
      '    tool: echo',
      '    params: { value: { size: 42 } }',
      'output: "${steps.a.output[\\"size\\"]}"',
      '',
    ].join('\n');
    const result = await runYaml(chain);
    assert.equal(result.output, 42);
  });

  it('declares inputs from type=default, with the comment as description', () => {
    const prompt = compileYaml(
      [
        'name: test-prompt',
        'input:',
        '  topic: string        # 研究主题',
        '  depth: number=3',
        '  store_location: string="memory"',
        '  deep: boolean=false',
        'steps: []',
        '',
      ].join('\n'),
      testRegistry(),
    );
    assert.deepEqual(
      prompt.inputs.map(({ name, type, default: d, description, required }) => ({ name, type, default: d, description, required })),
      [
        { name: 'topic', type: 'text', default: undefined, description: '研究主题', required: true },
        { name: 'depth', type: 'number', default: 3, description: undefined, required: false },
        { name: 'store_location', type: 'text', default: 'memory', description: undefined, required: false },
        { name: 'deep', type: 'boolean', default: false, description: undefined, required: false },
      ],
    );
  });

  it('strategy: retry retries every step (3 attempts unless given)', async () => {
    const probe = new ToolProbe();
    probe.failuresLeft.set('k', 2);
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: a',
      '    tool: flaky',
      '    params: { key: k }',
      'error_handling:',
      '  strategy: retry',
      '  backoff: 1ms',
      '',
    ].join('\n');
    const result = await runYaml(chain, {}, { registry: testRegistry(probe) });
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, 'ok k');
    assert.equal(probe.calls.length, 3);
  });

  it('strategy: fallback runs the entry named by ${steps.id.error}, which reads the error; other steps abort', async () => {
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: search',
      '    tool: boom',
      '    params: { reason: down }',
      '  - id: after',
      '    tool: echo',
      '    params: { value: "got: ${steps.search.output}" }',
      'error_handling:',
      '  strategy: fallback',
      '  fallback:',
      '    - condition: "${steps.search.error}"',
      '      tool: echo',
      '      params: { value: "recalled (${steps.search.error})" }',
      '',
    ].join('\n');
    const result = await runYaml(chain);
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, 'got: recalled (boom: down)');
    const prompt = compileYaml(chain, testRegistry());
    assert.deepEqual(
      prompt.steps.map((s) => s.onError),
      ['fallback', 'abort'],
    );
  });

  it("a step's own error_handling replaces the chain's", async () => {
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: a',
      '    tool: boom',
      '    params: { reason: one }',
      '    error_handling:',
      '      strategy: fallback',
      '      fallback: [{ tool: echo, params: { value: "spare" } }]',
      'error_handling:',
      '  strategy: abort',
      '',
    ].join('\n');
    const result = await runYaml(chain);
    assert.equal(result.output, 'spare');
  });

  it('an output mapping becomes a structured result', async () => {
    const chain = [
      'name: test-prompt',
      'steps:',
      '  - id: a',
      '    tool: echo',
      '    params: { value: [1, 2, 3] }',
      'output:',
      '  items: "${steps.a.output}"',
      '  count: "${steps.a.output.size}"',
      '  note: "n=${steps.a.output.size}"',
      '',
    ].join('\n');
    const result = await runYaml(chain);
    assert.deepEqual(result.output, { items: [1, 2, 3], count: 3, note: 'n=3' });
  });

  it('a file with tool_chain is CodeWiki format: ${…} there is the CodeWiki error, not a seed reference', () => {
    assert.throws(
      () =>
        compileYaml(
          ['title: T', 'input_variables: [{ name: q }]', 'tool_chain:', '  - tool: echo', '    input: { value: "${q}" }', ''].join('\n'),
          testRegistry(),
        ),
      /test-prompt\.yaml:5:22: tool_chain\[0\]\.input\.value: "\$\{q\}": CodeWiki writes references as \{name\}/,
    );
  });
});
