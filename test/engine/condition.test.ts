import { strict as assert } from 'node:assert';
import { compileCondition } from '../../src/core/actionPrompt/condition';

const vars = new Map<string, unknown>([
  ['files', ['a', 'b']],
  ['empty', []],
  ['mode', 'deep'],
  ['count', '3'],
  ['summary', { files: [{ lines: 10 }], total: 2 }],
]);
const evaluate = (source: string) => compileCondition(source).evaluate(vars);

describe('step conditions', () => {
  it('evaluates comparisons, logic, paths and ternaries', () => {
    assert.equal(evaluate('files.length > 0'), true);
    assert.equal(evaluate('empty.length > 0'), false);
    assert.equal(evaluate('mode == "deep" && summary.files[0].lines >= 10'), true);
    assert.equal(evaluate('count == 3'), true, 'loose equality: CLI inputs are strings');
    assert.equal(evaluate('count === 3'), false);
    assert.equal(evaluate('!empty'), true, 'an empty list is false');
    assert.equal(evaluate('(summary.total + 1) * 2 == 6 ? true : false'), true);
    assert.equal(evaluate('missing.deep.path == null'), true);
  });

  it('reports the variables it reads, which become dependencies', () => {
    assert.deepEqual(compileCondition('a.length > 0 && b == c[d]').variables.sort(), ['a', 'b', 'c', 'd']);
  });

  it('cannot call functions, assign or reach prototypes', () => {
    assert.throws(() => compileCondition('files.map(x)'), /CallExpression is not allowed/);
    assert.throws(() => compileCondition('files.constructor'), /"constructor" cannot be read/);
    assert.throws(() => compileCondition('a = 1'), /not/);
    assert.equal(evaluate('files["constructor"] == null'), true, 'computed access to blocked names yields nothing');
    assert.throws(() => compileCondition('this.x'), /ThisExpression is not allowed/);
  });
});
