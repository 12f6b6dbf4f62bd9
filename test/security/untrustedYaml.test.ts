import { strict as assert } from 'node:assert';
import { ActionPromptError } from '../../src/core/yaml/diagnostics';
import { compileYaml, testRegistry } from '../support/engineBuilders';

/** security.md #9: workflow YAML is untrusted input. Nothing runs when a file is invalid. */
describe('security #9: hostile action-prompt YAML', () => {
  const registry = testRegistry();
  const reject = (yaml: string, pattern: RegExp) => {
    assert.throws(
      () => compileYaml(yaml, registry, 'hostile', 'hostile.yaml'),
      (error: unknown) => error instanceof ActionPromptError && error.diagnostics.every((d) => d.file === 'hostile.yaml') && pattern.test(error.message),
    );
  };

  it('rejects a billion-laughs alias bomb without expanding it', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const heapBefore = process.memoryUsage().heapUsed;
    reject(`title: bomb\n${levels.join('\n')}\n`, /expands to more than/);
    const grewMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;
    assert.ok(grewMb < 50, `memory grew by ${grewMb.toFixed(1)} MB`);
  });

  it('rejects deep nesting instead of overflowing the stack', () => {
    reject(`title: deep\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`, /nesting/);
    reject(`title: deep\nx: ${'['.repeat(60)}${']'.repeat(60)}\n`, /nesting deeper than 40 levels/);
  });

  it('rejects __proto__, constructor and prototype keys at their line', () => {
    assert.throws(
      () => compileYaml('title: x\ntool_chain:\n  - tool: echo\n    input:\n      __proto__:\n        polluted: true\n', registry, 'p', 'p.yaml'),
      (error: unknown) => error instanceof ActionPromptError && error.diagnostics[0].line === 5 && /"__proto__" is not allowed/.test(error.message),
    );
    reject('title: x\nconstructor: 1\n', /"constructor" is not allowed/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('rejects an oversized file before parsing it', () => {
    reject(`title: big\ndescription: "${'x'.repeat(300 * 1024)}"\n`, /bytes; the limit is 262144/);
  });

  it('rejects too many nodes', () => {
    reject(`title: many\nlist: [${Array(25_000).fill('1').join(',')}]\n`, /more than 20000 YAML nodes/);
  });

  it('security #8: a workflow cannot grant itself approvals or permissions (no such fields exist)', () => {
    reject('title: x\nauto_approve: true\n', /unknown field "auto_approve"/);
    reject('title: x\ntool_chain:\n  - tool: echo\n    input: hi\n    permissions: [write]\n', /unknown field "permissions"/);
  });

  it('turns YAML tags that construct objects into plain errors', () => {
    reject('title: x\nfn: !!js/function "function(){}"\n', /invalid YAML/);
  });
});
