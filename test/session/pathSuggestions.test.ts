import { strict as assert } from 'node:assert';
import { Workspace } from '../../src/core/workspace';
import { suggestPaths } from '../../src/core/workspace/pathSuggestions';
import { tempWorkspace } from '../support/engineBuilders';

describe('path suggestions for /agent forms', () => {
  it('completes folders first, stays inside the workspace and hides secrets and ignored folders', async () => {
    const ws = tempWorkspace({ 'src/app.ts': '', 'src/api/x.ts': '', 'srcmap.txt': '', '.env': 'X=1', 'node_modules/a/index.js': '', 'README.md': '' });
    try {
      const workspace = await Workspace.open(ws.root);
      assert.deepEqual(await suggestPaths(workspace, 'sr'), ['src/', 'srcmap.txt']);
      assert.deepEqual(await suggestPaths(workspace, 'src/'), ['src/api/', 'src/app.ts']);
      assert.deepEqual(await suggestPaths(workspace, './src/a'), ['src/api/', 'src/app.ts']);
      assert.deepEqual(await suggestPaths(workspace, ''), ['src/', 'README.md', 'srcmap.txt']);
      assert.deepEqual(await suggestPaths(workspace, '../'), []);
      assert.deepEqual(await suggestPaths(workspace, '/etc/'), []);
    } finally {
      ws.cleanup();
    }
  });
});
