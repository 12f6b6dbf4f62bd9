import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import { agentRun, allStoredText, readConversationFile, useTempStorage, userMessage } from './historyBuilders';

/** What callers (the webview among them) hand the store is untrusted: ids, message shapes, stray secrets. */
describe('history: untrusted input', () => {
  const storage = useTempStorage();

  it('drops fields the schema does not declare, so a stray apiKey never reaches the disk', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const secret = 'sk-test-DO-NOT-STORE-1234567890';
    const leaky = { ...userMessage('hello'), apiKey: secret };
    const leakyRun = agentRun();
    (leakyRun.steps[0] as unknown as Record<string, unknown>).apiKey = secret;
    (leakyRun as unknown as Record<string, unknown>).llmConfig = { apiKey: secret };
    await manager.appendMessage(conversation.id, leaky);
    await manager.appendMessage(conversation.id, leakyRun);
    await manager.flush();

    assert.ok(!allStoredText(storage.dir()).includes(secret), 'the key is in no file under the storage folder');
    assert.ok(!JSON.stringify(manager.getConversation(conversation.id)).includes(secret), 'nor in what the UI gets back');
    assert.match(readConversationFile(storage.dir(), conversation.id), /"text":"hello"/);
    await manager.dispose();
  });

  it('rejects conversation ids that could escape the folder and never touches such paths', async () => {
    const { manager } = await StateManager.open(storage.dir());
    for (const id of ['../escape', '..', 'a/b', 'a\\b', '', 'x\0y', '/etc/passwd']) {
      assert.equal(manager.getConversation(id), undefined);
      await assert.rejects(manager.appendMessage(id, userMessage('x')), { name: 'UnknownConversationError' });
    }
    assert.equal(existsSync(join(storage.dir(), 'escape.jsonl')), false);
    await assert.rejects(manager.setOpenConversationId('../escape'), { name: 'UnknownConversationError' });
    await manager.dispose();
  });

  it('rejects a message whose id is already there on append, and replaces it on upsert', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const message = userMessage('first');
    await manager.appendMessage(conversation.id, message);
    await assert.rejects(manager.appendMessage(conversation.id, message), /already in the conversation/);
    await manager.upsertMessage(conversation.id, { ...message, text: 'edited' });
    await assert.rejects(manager.appendMessage(conversation.id, { kind: 'nope' } as never), { name: 'InvalidMessageError' });
    assert.deepEqual(
      manager.getConversation(conversation.id)?.messages.map((m) => m.kind === 'user' && m.text),
      ['edited'],
    );
    await manager.dispose();
  });
});
