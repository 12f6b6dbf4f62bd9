import { strict as assert } from 'node:assert';
import { webviewToHostSchema } from '../../src/shared/protocol';

/** security.md #6: the host acts only on messages of the protocol's exact shapes. */
describe('webview → host messages are validated', () => {
  const accepts = (message: unknown) => webviewToHostSchema.safeParse(message).success;

  it('accepts the protocol', () => {
    assert.ok(accepts({ type: 'webview/ready' }));
    assert.ok(accepts({ type: 'chat/send', text: 'hi' }));
    assert.ok(accepts({ type: 'promptRun/start', promptId: 'explain-file', inputs: { file: 'a.ts', depth: 2, deep: true } }));
    assert.ok(accepts({ type: 'settings/open', setting: 'model' }));
  });

  it('rejects unknown types, extra fields, wrong shapes and command names', () => {
    assert.equal(accepts({ type: 'command/execute', command: 'workbench.action.terminal.new' }), false);
    assert.equal(accepts({ type: 'chat/send', text: 'hi', command: 'x' }), false);
    assert.equal(accepts({ type: 'chat/send', text: '' }), false);
    assert.equal(accepts({ type: 'promptRun/start', promptId: 'x', inputs: { nested: { a: 1 } } }), false);
    assert.equal(accepts({ type: 'settings/open', setting: 'http.proxy' }), false);
    assert.equal(accepts({ type: 'runLog/open', runId: '' }), false);
    assert.equal(accepts('chat/send'), false);
    assert.equal(accepts(null), false);
  });
});
