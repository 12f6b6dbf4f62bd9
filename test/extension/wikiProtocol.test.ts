import { strict as assert } from 'node:assert';
import { wikiToHostSchema } from '../../src/shared/wikiProtocol';

/** security.md #6: the wiki panel's host acts only on messages of the shapes the page sends (wikiPanel.ts `handle`). */
describe('wiki panel messages from the webview (host-side validation)', () => {
  const accepted = (message: unknown) => wikiToHostSchema.safeParse(message).success;

  it('accepts each message the page sends', () => {
    for (const message of [
      { type: 'wiki/ready' },
      { type: 'wiki/showPage', path: 'modules/core.md' },
      { type: 'wiki/openLink', page: 'index.md', href: '../../src/a.ts#L3' },
      { type: 'wiki/generate' },
      { type: 'wiki/stop' },
    ])
      assert.ok(accepted(message), JSON.stringify(message));
  });

  it('rejects forged ones: unknown types, extra fields (a command to run), NUL bytes, oversized or missing values', () => {
    for (const message of [
      { type: 'wiki/runCommand', command: 'workbench.action.terminal.new' },
      { type: 'wiki/openLink', page: 'index.md', href: 'x', command: 'vscode.open' },
      { type: 'wiki/generate', scope: 'all', model: 'evil' },
      { type: 'wiki/showPage', path: 'modules/core.md\0../../.env' },
      { type: 'wiki/showPage', path: '' },
      { type: 'wiki/openLink', page: 'index.md', href: 'a'.repeat(2_001) },
      { type: 'wiki/openLink', page: 'index.md' },
      { type: 'wiki/showPage', path: 42 },
      'wiki/stop',
      null,
    ])
      assert.ok(!accepted(message), JSON.stringify(message));
  });
});
