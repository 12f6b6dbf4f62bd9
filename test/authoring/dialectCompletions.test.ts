import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { completionsAt, diagnoseDocument } from '../../src/core/authoring';
import { authoringWorkspace, cursor } from './authoringFixtures';

/** A prompt file in seed 002's dialect (top-level `steps:`) gets the dialect's completion, not CodeWiki's. */
describe('completion in seed-002 dialect prompts', () => {
  let ws: Awaited<ReturnType<typeof authoringWorkspace>>;
  before(async () => {
    ws = await authoringWorkspace();
  });
  after(() => ws.cleanup());

  const file = '/ws/.codewiki/prompts/find-uses.yaml';
  const complete = (marked: string) => {
    const { text, offset } = cursor(marked);
    return completionsAt(text, file, 'prompt', offset, ws.env);
  };
  const labels = (marked: string) => complete(marked).map((i) => i.label);
  const chain = (step: string) => `name: find-uses\ninput:\n  pattern: string   # Text to look for\nsteps:\n  - id: search\n    tool: search_text\n${step}`;

  it("offers the dialect's top-level fields, not tool_chain", () => {
    const top = labels('name: find-uses\nsteps: []\n‸');
    assert.deepEqual(top.sort(), ['description', 'error_handling', 'input', 'metadata', 'output', 'version']);
    assert.ok(!top.includes('tool_chain') && !top.includes('input_variables') && !top.includes('llm_prompt_template'));
  });

  it("offers a step's fields, its output's and an error_handling's", () => {
    assert.deepEqual(labels(chain('    ‸')).sort(), ['condition', 'error_handling', 'output', 'params']);
    assert.deepEqual(labels(chain('    output:\n      ‸')).sort(), ['as', 'select']);
    assert.deepEqual(labels(chain('    error_handling:\n      ‸')).sort(), ['attempts', 'backoff', 'fallback', 'strategy']);
    assert.deepEqual(labels(chain('    error_handling:\n      strategy: ‸')), ['abort', 'retry', 'fallback']);
    assert.deepEqual(labels(chain('    error_handling:\n      strategy: fallback\n      fallback:\n        - ‸')).sort(), ['condition', 'params', 'tool']);
    assert.deepEqual(labels('name: x\ninput:\n  topic:\n    ‸\nsteps: []').sort(), ['default', 'description', 'required', 'type']);
  });

  it("offers the tool's parameter names under params:, in a step and in a fallback", () => {
    const params = complete(chain('    params:\n      query: "${input.pattern}"\n      ‸'));
    assert.ok(params.length > 0 && params.every((i) => i.kind === 'parameter'), params.map((i) => i.label).join());
    assert.ok(!params.some((i) => i.label === 'query'), 'query is already given');
    assert.ok(
      params.some((i) => i.label === 'max_results'),
      params.map((i) => i.label).join(),
    );
    const fallback = labels(
      chain('    error_handling:\n      strategy: fallback\n      fallback:\n        - tool: read_file\n          params:\n            ‸'),
    );
    assert.deepEqual(fallback.sort(), ['end_line', 'path', 'start_line']);
  });

  it('offers tool names and input types as values', () => {
    const tools = complete(chain('  - id: explain\n    tool: sum‸'));
    assert.ok(tools.some((i) => i.label === 'summarize_llm_tool' && i.kind === 'tool'));
    assert.ok(!tools.some((i) => i.label === 'find-uses'), 'a chain cannot call itself');
    assert.ok(labels('name: x\ninput:\n  depth: ‸\nsteps: []').includes('number'));
  });

  it("after ${ offers input.x and the other steps' outputs, never CodeWiki's {name}", () => {
    const items = complete(chain('  - id: explain\n    tool: summarize_llm_tool\n    params:\n      content: "${‸"'));
    assert.deepEqual(
      items.map((i) => i.label),
      ['input.pattern', 'steps.search.output'],
    );
    assert.equal(items[0].insertText, 'input.pattern}');
    const inFallback = complete(
      chain('    error_handling:\n      strategy: fallback\n      fallback:\n        - tool: read_file\n          params: { path: "${st‸}" }'),
    );
    assert.deepEqual(
      inFallback.map((i) => i.label),
      ['input.pattern', 'steps.search.error'],
    );
    assert.equal(inFallback[1].insertText, 'steps.search.error', 'the } is already there');
  });

  it('every step key it offers is one the loader accepts there', () => {
    const errorsIn = (text: string) =>
      diagnoseDocument(text, join(ws.root, '.codewiki/prompts/find-uses.yaml'), 'prompt', ws.env)
        .filter((d) => d.severity === 'error')
        .map((d) => d.message);
    const params = '    params: { query: "${input.pattern}" }\n';
    assert.deepEqual(errorsIn(chain(params)), []);
    const sample: Record<string, string> = { params: '', output: '{ as: hits }', condition: '"${input.pattern}"', error_handling: '{ strategy: abort }' };
    assert.deepEqual(labels(chain('    ‸')).sort(), Object.keys(sample).sort());
    for (const [key, value] of Object.entries(sample)) {
      if (value) assert.deepEqual(errorsIn(chain(`${params}    ${key}: ${value}\n`)), [], key);
    }
  });
});
