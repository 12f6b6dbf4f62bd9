import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageWriteError } from '../../src/core/history/historyErrors';
import { StateManager } from '../../src/core/history/stateManager';
import { useTempStorage, userMessage } from './historyBuilders';

/**
 * Tests run as root, where chmod does not stop writes; failures are provoked by putting a regular file
 * where the conversations folder should be (ENOTDIR) or by pointing a conversation file at /dev/full
 * (ENOSPC, "disk full").
 */
describe('history: write failures', () => {
  const storage = useTempStorage();
  const folder = () => join(storage.dir(), 'conversations');

  function breakFolder(): void {
    renameSync(folder(), `${folder()}.away`);
    writeFileSync(folder(), 'not a folder');
  }
  function repairFolder(): void {
    rmSync(folder());
    renameSync(`${folder()}.away`, folder());
  }

  it('surfaces StorageWriteError, keeps the message in memory, and saves it on a later flush()', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Keep me');
    await manager.appendMessage(conversation.id, userMessage('saved'));

    breakFolder();
    const error = await manager.appendMessage(conversation.id, userMessage('not saved yet')).then(
      () => assert.fail('the append should have failed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof StorageWriteError);
    assert.equal(error.code, 'ENOTDIR');
    assert.equal(error.conversationId, conversation.id);
    assert.match(error.message, /^Could not save the conversation: a part of the storage path is not a folder \(ENOTDIR\)$/);
    assert.deepEqual(
      manager.getConversation(conversation.id)?.messages.map((m) => m.kind === 'user' && m.text),
      ['saved', 'not saved yet'],
    );
    assert.equal(manager.listConversations()[0]?.messageCount, 2);
    await assert.rejects(manager.flush(), StorageWriteError, 'still failing, still reported');

    repairFolder();
    await manager.flush();
    await manager.dispose();
    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.deepEqual(
      reopened.getConversation(conversation.id)?.messages.map((m) => m.kind === 'user' && m.text),
      ['saved', 'not saved yet'],
    );
    await reopened.dispose();
  });

  it('keeps a new conversation in memory when its file cannot be created, and creates it on retry', async () => {
    const { manager } = await StateManager.open(storage.dir());
    breakFolder();
    const error = await manager.createConversation('Born offline').then(
      () => assert.fail('creating should have failed'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof StorageWriteError && error.conversationId);
    const id = error.conversationId;
    assert.equal(manager.getConversation(id)?.title, 'Born offline');
    await assert.rejects(manager.appendMessage(id, userMessage('first words')), StorageWriteError);

    repairFolder();
    await manager.appendMessage(id, userMessage('second words')); // the retry carries the earlier lines along
    await manager.dispose();
    const { manager: reopened } = await StateManager.open(storage.dir());
    assert.deepEqual(
      reopened.getConversation(id)?.messages.map((m) => m.kind === 'user' && m.text),
      ['first words', 'second words'],
    );
    await reopened.dispose();
  });

  it('reports a full disk in plain words and saves the turn once space is back', async function () {
    if (!existsSync('/dev/full')) this.skip();
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Disk full');
    const path = join(folder(), `${conversation.id}.jsonl`);
    const saved = readFileSync(path);
    renameSync(path, `${path}.real`);
    symlinkSync('/dev/full', path);

    await assert.rejects(manager.appendMessage(conversation.id, userMessage('big')), (e: unknown) => {
      assert.ok(e instanceof StorageWriteError);
      assert.equal(e.code, 'ENOSPC');
      assert.match(e.message, /the disk is full \(ENOSPC\)/);
      return true;
    });

    rmSync(path);
    renameSync(`${path}.real`, path);
    await manager.flush();
    await manager.dispose();
    assert.ok(readFileSync(path).subarray(0, saved.length).equals(saved), 'the earlier content is intact');
    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.equal(reopened.getConversation(conversation.id)?.messages.length, 1);
    await reopened.dispose();
  });

  it('surfaces a failed index write from flush() without touching the conversations', async () => {
    const { manager } = await StateManager.open(storage.dir(), { indexDelayMs: 60_000 });
    const conversation = await manager.createConversation();
    await manager.appendMessage(conversation.id, userMessage('hello'));
    rmSync(join(storage.dir(), 'index.json'));
    mkdirSync(join(storage.dir(), 'index.json', 'blocker'), { recursive: true });

    await assert.rejects(manager.flush(), (e: unknown) => e instanceof StorageWriteError && /history index/.test(e.message));
    rmSync(join(storage.dir(), 'index.json'), { recursive: true });
    await manager.dispose(); // the retry succeeds
    const { manager: reopened } = await StateManager.open(storage.dir());
    assert.equal(reopened.getConversation(conversation.id)?.messages.length, 1);
    await reopened.dispose();
  });

  it('refuses to open a storage folder that cannot be created, with a StorageWriteError', async () => {
    const file = join(storage.dir(), 'plain-file');
    writeFileSync(file, '');
    await assert.rejects(StateManager.open(join(file, 'storage')), (e: unknown) => e instanceof StorageWriteError && e.code === 'ENOTDIR');
  });
});
