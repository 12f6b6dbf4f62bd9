import { strict as assert } from 'node:assert';
import { cursorPlaceAt } from '../../src/core/yaml/yamlCursor';
import { cursor } from './authoringFixtures';

const place = (marked: string) => {
  const { text, offset } = cursor(marked);
  return cursorPlaceAt(text, offset);
};

describe('the YAML cursor of a half-written document', () => {
  it('finds the key being typed at the top, in a step and under input', () => {
    assert.deepEqual(place('title: x\nto‸'), { kind: 'key', path: [], prefix: 'to', start: 9, sequenceItem: false });
    const step = place('tool_chain:\n  - tool: read_file\n    out‸');
    assert.equal(step.kind, 'key');
    assert.deepEqual(step.kind === 'key' && step.path, ['tool_chain', 0]);
    const input = place('tool_chain:\n  - tool: a\n  - tool: read_file\n    input:\n      ‸');
    assert.deepEqual(input.kind === 'key' && input.path, ['tool_chain', 1, 'input']);
  });

  it("counts sequence items written at the parent key's indentation, and fallback steps", () => {
    const flat = place('tool_chain:\n- tool: a\n- tool: b\n  input: {}\n- t‸');
    assert.deepEqual(flat.kind === 'key' && [flat.path, flat.sequenceItem], [['tool_chain', 2], true]);
    const fallback = place('tool_chain:\n  - tool: a\n    on_error: fallback\n    fallback:\n      - tool: b\n      - tool: ‸');
    assert.deepEqual(fallback.kind === 'value' && [fallback.path, fallback.key], [['tool_chain', 0, 'fallback', 1], 'tool']);
  });

  it('tells a value from the text of a block', () => {
    const value = place('input_variables:\n  - name: a\n    type: mu‸');
    assert.deepEqual(value, {
      kind: 'value',
      path: ['input_variables', 0],
      key: 'type',
      prefix: 'mu',
      start: 'input_variables:\n  - name: a\n    type: '.length,
    });
    assert.deepEqual(place('llm_prompt_template:\n  human: |\n    About {‸'), { kind: 'text', path: ['llm_prompt_template', 'human'] });
  });
});
