import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workspace } from '../../src/core/workspace';
import { tempWorkspace } from '../support/engineBuilders';

/** The refusal of a secret file names a setting the user can actually find, and that setting works. */
describe('codewiki.allowSecretFiles', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));

  it('is contributed as a user-level list of globs', () => {
    const setting = pkg.contributes.configuration.properties['codewiki.allowSecretFiles'];
    assert.ok(setting, 'package.json contributes codewiki.allowSecretFiles');
    assert.equal(setting.type, 'array');
    assert.equal(setting.items.type, 'string');
    assert.equal(setting.scope, 'application', 'a workspace cannot un-deny its own secrets');
  });

  it('is what the refusal tells the user to set, and a pattern in it allows the file', async () => {
    const ws = tempWorkspace({ '.env': 'A=1\n', '.env.example': 'A=\n' });
    try {
      const strict = await Workspace.open(ws.root);
      await assert.rejects(
        strict.resolve('.env.example'),
        /may contain secrets .*to allow it, add a pattern for it to the user setting codewiki\.allowSecretFiles/,
      );
      const allowing = await Workspace.open(ws.root, { allowSecrets: ['.env.example'] });
      assert.equal((await allowing.resolve('.env.example')).relative, '.env.example');
      await assert.rejects(allowing.resolve('.env'), /may contain secrets/);
    } finally {
      ws.cleanup();
    }
  });
});
