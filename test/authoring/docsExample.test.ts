import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { completionsAt, definitionAt, locatedDiagnostics } from '../../src/core/authoring';
import { authoringWorkspace, REPO } from './authoringFixtures';

/** docs/authoring.md's example is valid, and what its comments promise is what the editor offers. */
describe('docs/authoring.md example', () => {
  it('has no problems, and its comments hold', async () => {
    const doc = readFileSync(join(REPO, 'docs', 'authoring.md'), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(doc)![1];
    const ws = await authoringWorkspace();
    try {
      const file = join(ws.root, '.codewiki/prompts/explain.yaml');
      assert.deepEqual(locatedDiagnostics(example, file, 'prompt', ws.env), []);
      const at = (needle: string, delta = needle.length) => example.indexOf(needle) + delta;
      assert.deepEqual(
        completionsAt(example, file, 'prompt', at('type: '), ws.env).map((c) => c.label),
        ['text', 'multiline', 'path', 'number', 'boolean', 'select'],
      );
      assert.ok(completionsAt(example, file, 'prompt', at('tool: '), ws.env).some((c) => c.label === 'read_file'));
      assert.deepEqual(
        completionsAt(example, file, 'prompt', at('"{'), ws.env).map((c) => c.label),
        ['file'],
      );
      const target = definitionAt(example, file, 'prompt', at('"{file}"', 2));
      assert.equal(target && example.slice(0, target.start).split('\n').length, 3);
    } finally {
      ws.cleanup();
    }
  });
});
