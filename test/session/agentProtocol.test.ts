import { strict as assert } from 'node:assert';
import { webviewToHostSchema } from '../../src/shared/protocol';

/** security.md #6: agent-mode messages from the webview are accepted only in their exact shapes. */
describe('webview → host agent-mode messages are validated', () => {
  const accepts = (message: unknown) => webviewToHostSchema.safeParse(message).success;

  it('accepts agent/send with mode, mentions and attachments, and fills in empty lists', () => {
    assert.ok(
      accepts({
        type: 'agent/send',
        text: 'why?',
        mentions: ['@read_file', 'search_text'],
        attachments: [
          { kind: 'file', path: 'src/a.ts' },
          { kind: 'selection', path: 'src/b.ts', startLine: 3, endLine: 9 },
        ],
      }),
    );
    assert.ok(accepts({ type: 'agent/send', text: 'why?', mode: 'chat', mentions: [], attachments: [] }));
    const parsed = webviewToHostSchema.parse({ type: 'agent/send', text: 'why?' });
    assert.deepEqual(parsed, { type: 'agent/send', text: 'why?', mentions: [], attachments: [] });
  });

  it('rejects agent/send that is empty, has an unknown mode, bad mentions or malformed attachments', () => {
    assert.equal(accepts({ type: 'agent/send', text: '' }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', mode: 'yolo' }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', mentions: ['rm -rf /'] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', mentions: Array.from({ length: 21 }, (_, i) => `t${i}`) }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'file', path: 'a\0b' }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'file', path: '' }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'selection', path: 'a.ts', startLine: 9, endLine: 3 }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'selection', path: 'a.ts', startLine: 0, endLine: 3 }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'url', path: 'https://evil' }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', attachments: [{ kind: 'file', path: 'a.ts', content: 'forged' }] }), false);
    assert.equal(accepts({ type: 'agent/send', text: 'x', approvalPolicy: { kinds: ['write'] } }), false, 'no message can carry a grant');
  });

  it('agent/draft: a question with its mentions and attachments as agent/send has them, and nothing else (no mode: a draft is only for agent mode)', () => {
    assert.deepEqual(webviewToHostSchema.parse({ type: 'agent/draft', text: 'where?' }), {
      type: 'agent/draft',
      text: 'where?',
      mentions: [],
      attachments: [],
    });
    assert.ok(accepts({ type: 'agent/draft', text: 'where?', mentions: ['read_file'], attachments: [{ kind: 'file', path: 'a.ts' }, { kind: 'codebase' }] }));
    assert.equal(accepts({ type: 'agent/draft', text: '' }), false);
    assert.equal(accepts({ type: 'agent/draft', text: 'x', mode: 'agent' }), false);
    assert.equal(accepts({ type: 'agent/draft', text: 'x', mentions: ['rm -rf /'] }), false);
    assert.equal(accepts({ type: 'agent/draft', text: 'x', attachments: [{ kind: 'file', path: 'a.ts', content: 'forged' }] }), false);
  });

  it('agent/approve: one of three decisions for an approval id, with an optional short reason', () => {
    assert.ok(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'allow-once' }));
    assert.ok(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'allow-conversation' }));
    assert.ok(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'deny', reason: 'not now' }));
    assert.equal(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'allow-always' }), false);
    assert.equal(accepts({ type: 'agent/approve', approvalId: '', decision: 'deny' }), false);
    assert.equal(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'deny', reason: 'x'.repeat(2001) }), false);
    assert.equal(accepts({ type: 'agent/approve', approvalId: 'a1', decision: 'allow-once', tool: 'run_command' }), false);
  });

  it('tool toggles, the master switch, the new-tools default and the chat mode', () => {
    assert.ok(accepts({ type: 'tools/request' }));
    assert.ok(accepts({ type: 'tools/toggle', name: 'run_command', enabled: false }));
    assert.ok(accepts({ type: 'tools/setEnabled', enabled: false }));
    assert.ok(accepts({ type: 'tools/setEnableNewTools', enabled: true }));
    assert.ok(accepts({ type: 'chat/setMode', mode: 'chat' }));
    assert.equal(accepts({ type: 'tools/toggle', name: 'run command', enabled: true }), false);
    assert.equal(accepts({ type: 'tools/toggle', name: 'run_command', enabled: 'yes' }), false);
    assert.equal(accepts({ type: 'tools/toggle', name: 'run_command', enabled: true, scope: 'workspace' }), false);
    assert.equal(accepts({ type: 'tools/setEnabled' }), false);
    assert.equal(accepts({ type: 'chat/setMode', mode: 'auto' }), false);
    assert.equal(accepts({ type: 'settings/update', key: 'codewiki.agent.autoApprove', value: { write: true } }), false);
  });

  it('file/open takes a path and an optional 1-based line; editor/diff takes only an approval id', () => {
    assert.ok(accepts({ type: 'file/open', path: 'src/a.ts' }));
    assert.ok(accepts({ type: 'file/open', path: 'src/a.ts', line: 12 }));
    assert.equal(accepts({ type: 'file/open', path: 'src/a.ts', line: 0 }), false);
    assert.equal(accepts({ type: 'file/open', path: 'src/a.ts', line: 1.5 }), false);
    assert.equal(accepts({ type: 'file/open', path: '' }), false);
    assert.equal(accepts({ type: 'file/open', path: 'x'.repeat(4097) }), false);
    assert.equal(accepts({ type: 'file/open', uri: 'command:workbench.action.terminal.new' }), false);
    assert.ok(accepts({ type: 'editor/diff', approvalId: 'a1' }));
    assert.equal(accepts({ type: 'editor/diff', approvalId: 'a1', path: '/etc/passwd' }), false);
  });
});
