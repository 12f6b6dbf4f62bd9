import { strict as assert } from 'node:assert';
import { resolveTemplateString } from '../../src/core/template/renderTemplate';
import { parseTemplate } from '../../src/core/template/templateParser';
import { compileYaml, testRegistry } from '../support/engineBuilders';

const vars = new Map<string, unknown>([
  ['review', null],
  ['empty', ''],
  ['doc', { title: 'T', tags: [] }],
]);

describe('template defaults: {name ?? "default"}', () => {
  it('uses the default when the value is null, missing or the path leads nowhere', () => {
    assert.equal(resolveTemplateString('{review ?? "none"}', vars), 'none');
    assert.equal(resolveTemplateString("[{review ?? 'none'}]", vars), '[none]');
    assert.equal(resolveTemplateString('{doc.author ?? "anonymous"}', vars), 'anonymous');
    assert.equal(resolveTemplateString('{review ?? 3}', vars), 3);
    assert.equal(resolveTemplateString('{review ?? false}', vars), false);
    assert.equal(resolveTemplateString('{review ?? null}', vars), null);
  });

  it('keeps a value that is present, even an empty one', () => {
    assert.equal(resolveTemplateString('{doc.title ?? "x"}', vars), 'T');
    assert.equal(resolveTemplateString('[{empty ?? "x"}]', vars), '[]');
    assert.deepEqual(resolveTemplateString('{doc.tags ?? "x"}', vars), []);
  });

  it('records the default on the reference and rejects a default that is not a literal', () => {
    const [segment] = parseTemplate('{review ?? "none"}').segments;
    assert.equal(segment.kind === 'ref' && segment.ref.fallback?.value, 'none');
    assert.throws(() => parseTemplate('{review ?? other}'), /the default after "\?\?" must be a quoted string, a number, true, false or null/);
    assert.throws(() => parseTemplate('{review ??}'), /the default after "\?\?"/);
  });

  it('a reference with a default does not make its step wait to be skipped; one without does', () => {
    const prompt = compileYaml(
      `title: needs
input_variables:
  - name: flag
    type: boolean
tool_chain:
  - id: gated
    tool: echo
    condition: flag
    input: x
    output_variable: gated
  - id: soft
    tool: echo
    input: "{gated ?? 'none'}"
  - id: hard
    tool: echo
    input: "{gated}"
  - id: by_condition
    tool: echo
    condition: "!gated"
    input: y
`,
      testRegistry(),
    );
    const byId = Object.fromEntries(prompt.steps.map((s) => [s.id, s.needs]));
    assert.deepEqual(byId, { gated: [], soft: [], hard: ['gated'], by_condition: [] });
    assert.deepEqual(prompt.dependencies, [[], [0], [0], [0]], 'all three still wait for the step they read');
  });
});
