import { strict as assert } from 'node:assert';
import { MAX_STEPS } from '../../src/core/actionPrompt/stepLimit';
import { DEFAULT_YAML_LIMITS } from '../../src/core/yaml/yamlLimits';
import { loadWorkspacePrompts, positionOf, type LoadedPrompts } from './workspacePrompts';

const { maxExpandedNodes, maxExpandedChars, maxDepth } = DEFAULT_YAML_LIMITS;

/** A step written once and repeated by `count - 1` aliases: what the file says, and what would run. */
function aliasedChain(count: number, step = '{ tool: summarize_llm_tool, input: { content: hello } }'): string {
  return `title: Many steps\ntool_chain: [&step ${step}${', *step'.repeat(count - 1)}]\n`;
}

/**
 * security.md #9: aliases must not turn a small file into a huge one. js-yaml shares an aliased
 * value by reference, so the cost only appears when the schema, the templates or a run walk the
 * copies; the size they expand to is measured while loading, and the step cap applies to the
 * steps that would run, not the steps that are written.
 */
describe('security #9: YAML that expands through aliases', () => {
  let loaded: LoadedPrompts | undefined;
  afterEach(() => loaded?.cleanup());

  async function load(files: Record<string, string>): Promise<LoadedPrompts> {
    loaded = await loadWorkspacePrompts(files);
    return loaded;
  }

  it('rejects 10,000 aliased steps at load, at the tool_chain key; the prompt is never compiled', async () => {
    const { entry, engine } = await load({ 'many.yaml': aliasedChain(10_000) });
    const many = entry('many');
    assert.equal(many.prompt, undefined, 'an invalid prompt is never compiled');
    assert.deepEqual(
      many.diagnostics.map((d) => [d.line, d.column, d.field, d.severity, d.message]),
      [[2, 1, 'tool_chain', 'error', `the tool_chain has 10000 steps once aliases are expanded and fallback steps counted (limit ${MAX_STEPS})`]],
    );
    assert.equal(engine.catalog.get('many'), undefined, 'nor can another prompt call it');
  });

  it('counts fallback steps, however they are repeated', async () => {
    const fallback = '{ tool: summarize_llm_tool, input: { content: "{error}" } }';
    const step = `{ tool: summarize_llm_tool, input: { content: hi }, on_error: { fallback: [${fallback}, ${fallback}] } }`;
    const { entry } = await load({ 'fallbacks.yaml': aliasedChain(400, step) });
    assert.match(entry('fallbacks').diagnostics[0].message, new RegExp(`the tool_chain has 1200 steps .*\\(limit ${MAX_STEPS}\\)`));
  });

  it(`still loads ${MAX_STEPS} aliased steps: the cap is on size, not on aliases`, async () => {
    const { entry } = await load({ 'exactly.yaml': aliasedChain(MAX_STEPS) });
    const exactly = entry('exactly');
    assert.deepEqual(exactly.diagnostics, []);
    assert.equal(exactly.prompt?.steps.length, MAX_STEPS);
  });

  it('rejects text that aliases multiply past the limit, at the alias that crosses it', async () => {
    const long = 'x'.repeat(200_000);
    const text = `title: Long\ndescription: &long "${long}"\ntool_chain:\n  - tool: summarize_llm_tool\n    input:\n      content: [*long, *long, *long, *long, *long, *long, *long, *long]\n`;
    const { entry } = await load({ 'long.yaml': text });
    const [problem, ...rest] = entry('long').diagnostics;
    assert.deepEqual(rest, []);
    assert.equal(problem.message, `the document expands to more than ${maxExpandedChars} characters of text through aliases (limit ${maxExpandedChars})`);
    // 200,000 written + 4 copies is still under 1 MiB; the fifth copy crosses it, and loading stops there.
    assert.deepEqual([problem.line, problem.column], Object.values(positionOf(text, '*long', 4)));
  });

  it('rejects structures that aliases multiply past the node limit, without reading on to the end', async () => {
    const thousand = `[${Array(1000).fill('1').join(', ')}]`;
    const refs = Array(150).fill('      - *block').join('\n');
    const text = `title: Wide\ndescription: &block ${thousand}\ntool_chain:\n  - tool: summarize_llm_tool\n    input:\n      content:\n${refs}\n`;
    const { entry } = await load({ 'wide.yaml': text });
    const [problem] = entry('wide').diagnostics;
    assert.equal(problem.message, `the document expands to more than ${maxExpandedNodes} nodes through aliases (limit ${maxExpandedNodes})`);
    const lastAlias = positionOf(text, '*block', 149).line;
    assert.ok(problem.line > 7 && problem.line < lastAlias, `reported at line ${problem.line}, an alias before the last (line ${lastAlias})`);
    assert.match(text.split('\n')[problem.line - 1], /^ {6}- \*block$/);
  });

  it('rejects an alias that contains itself', async () => {
    const { entry } = await load({ 'loop.yaml': 'title: Loop\ndescription: &loop [a, *loop]\n' });
    const [problem] = entry('loop').diagnostics;
    assert.deepEqual([problem.line, problem.column], [2, 24]);
    assert.match(problem.message, /an alias refers to a node that contains it/);
  });

  it('does not mistake an empty collection made by a tag (!!map) for an alias', async () => {
    const text =
      'title: Tagged\nllm_tools:\n  - name: facts\n    description: Extracts facts\n    human: Facts\n    output: json\n    schema: !!map\ntool_chain:\n  - tool: facts\n';
    const { entry } = await load({ 'tagged.yaml': text });
    assert.deepEqual(entry('tagged').diagnostics, []);
    assert.deepEqual(entry('tagged').prompt?.llmTools[0].schema, {});
  });

  it('rejects aliases that nest the document deeper than the depth limit', async () => {
    const deep = (levels: number, inner: string) => `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
    const text = `title: Deep\ndescription: &deep ${deep(30, '1')}\ntool_chain:\n  - tool: summarize_llm_tool\n    input: { content: ${deep(15, '*deep')} }\n`;
    const { entry } = await load({ 'deep.yaml': text });
    const [problem] = entry('deep').diagnostics;
    assert.equal(problem.message, `aliases nest the document deeper than ${maxDepth} levels (limit ${maxDepth})`);
    assert.deepEqual([problem.line, problem.column], Object.values(positionOf(text, '*deep')));
  });

  it('keeps ordinary anchors working: shared text and a shared input, dry-run as written', async () => {
    const text = [
      'title: Two reviews',
      'input_variables:',
      '  - name: path',
      '    type: path',
      'llm_tools:',
      '  - name: review_style',
      '    description: Reviews style',
      '    parameters: [{ name: content }]',
      '    system: &rules "Be brief. Quote line numbers."',
      '    human: "Style of:\\n{content}"',
      '  - name: review_bugs',
      '    description: Reviews bugs',
      '    parameters: [{ name: content }]',
      '    system: *rules',
      '    human: "Bugs in:\\n{content}"',
      'tool_chain:',
      '  - { tool: read_file, input: { path: "{path}" }, output_variable: file }',
      '  - { tool: review_style, input: &file_content { content: "{file}" }, output_variable: style }',
      '  - { tool: review_bugs, input: *file_content, output_variable: bugs }',
      'output: "{style}\\n{bugs}"',
      '',
    ].join('\n');
    const { entry, engine } = await load({ 'reviews.yaml': text });
    const reviews = entry('reviews');
    assert.deepEqual(reviews.diagnostics, []);
    assert.deepEqual(
      reviews.prompt?.llmTools.map((t) => t.system),
      ['Be brief. Quote line numbers.', 'Be brief. Quote line numbers.'],
    );
    const result = await engine.executor.run(reviews.prompt!, { path: 'src/a.ts' }, { dryRun: true });
    assert.equal(result.status, 'success', result.log.error);
    assert.deepEqual(
      result.log.steps.map((s) => s.status),
      ['success', 'success', 'success'],
    );
  });
});
