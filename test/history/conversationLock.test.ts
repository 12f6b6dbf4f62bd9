import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import { killRunningFixtures, startFixture } from './childProcesses';
import { assistantMessage, useTempStorage, userMessage } from './historyBuilders';

/**
 * The rule that keeps several windows from losing each other's turns: only the holder of a
 * conversation's lock may cut, repair or move its file. A child process (halfWriter.ts) holds the lock
 * with half a line written, as a window streaming a long answer does for a moment.
 */
describe('history: one writer at a time across processes', function () {
  this.timeout(60_000);
  afterEach(killRunningFixtures); // first, so no child is still writing when the folder is removed
  const storage = useTempStorage();
  const filePath = (id: string) => join(storage.dir(), 'conversations', `${id}.jsonl`);
  const lockFiles = () => readdirSync(join(storage.dir(), 'locks'));

  async function twoMessageConversation(): Promise<string> {
    const { manager } = await StateManager.open(storage.dir());
    const { id } = await manager.createConversation('Shared');
    await manager.appendMessage(id, userMessage('question'));
    await manager.appendMessage(id, assistantMessage('answer'));
    await manager.dispose();
    return id;
  }

  function texts(manager: StateManager, id: string): string[] {
    return (manager.getConversation(id)?.messages ?? []).map((m) => (m.kind === 'prompt-run' || m.kind === 'agent-turn' ? m.answer : m.text));
  }

  async function halfWrittenBy(id: string, text: string) {
    const child = startFixture('halfWriter.ts', [storage.dir(), id, text]);
    await child.waitFor('half-written');
    return child;
  }

  it('leaves a line another process is still writing alone, waits for it, and counts it before appending', async () => {
    const id = await twoMessageConversation();
    const child = await halfWrittenBy(id, 'from the other window');
    const duringWrite = readFileSync(filePath(id));

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, [], 'a line still being written is not reported as unfinished');
    assert.deepEqual(readFileSync(filePath(id)), duringWrite, 'opening the store changed nothing on disk');
    assert.deepEqual(texts(manager, id), ['question', 'answer']);
    assert.equal(lockFiles().length, 1, "the live writer's lock is kept");

    const elsewhere = await manager.createConversation('Elsewhere');
    let saved = false;
    const appended = manager.appendMessage(id, userMessage('from this window')).then(() => (saved = true));
    // What shows that the append is waiting, not merely slow: a write to another conversation, started after it
    // through the same store, gets through while it has not (locks are per conversation).
    await manager.appendMessage(elsewhere.id, userMessage('meanwhile, elsewhere'));
    assert.deepEqual(texts(manager, elsewhere.id), ['meanwhile, elsewhere']);
    assert.equal(saved, false, 'the append waits while the other process holds the lock');
    child.send('finish');
    await appended;
    await child.exited();
    const expected = ['question', 'answer', 'from the other window', 'from this window'];
    assert.deepEqual(texts(manager, id), expected, "the other process's line was read before appending");
    const messageCount = (m: StateManager) => m.listConversations().find((c) => c.id === id)?.messageCount;
    assert.equal(messageCount(manager), 4);
    await manager.dispose();

    const { manager: reopened, problems: later } = await StateManager.open(storage.dir());
    assert.deepEqual(later, []);
    assert.deepEqual(texts(reopened, id), expected);
    assert.equal(messageCount(reopened), 4);
    await reopened.dispose();
  });

  it('cuts the half line once its writer has been killed, reports it, and removes the dead lock', async () => {
    const id = await twoMessageConversation();
    const intact = readFileSync(filePath(id));
    const child = await halfWrittenBy(id, 'lost in the crash');
    child.process.kill('SIGKILL');
    await child.exited();

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /unfinished last entry in "Shared" was dropped/);
    assert.deepEqual(readFileSync(filePath(id)), intact, 'cut back to the last complete line');
    assert.deepEqual(lockFiles(), []);
    await manager.appendMessage(id, userMessage('after the crash'));
    await manager.dispose();

    const { manager: reopened, problems: later } = await StateManager.open(storage.dir());
    assert.deepEqual(later, []);
    assert.deepEqual(texts(reopened, id), ['question', 'answer', 'after the crash']);
    await reopened.dispose();
  });

  it('breaks the lock of a writer that hangs for longer than lockStaleMs, then cuts its half line', async () => {
    const id = await twoMessageConversation();
    const intact = readFileSync(filePath(id));
    const child = await halfWrittenBy(id, 'never finished');
    child.process.kill('SIGSTOP'); // alive, but it will never release the lock by itself
    const duringHang = readFileSync(filePath(id));

    const { manager, problems } = await StateManager.open(storage.dir(), { lockStaleMs: 300 });
    assert.deepEqual(problems, [], 'opening neither waits for the lock nor touches the file');
    assert.deepEqual(readFileSync(filePath(id)), duringHang);
    await manager.appendMessage(id, userMessage('not blocked for ever'));
    assert.match(manager.takeProblems().join('\n'), /unfinished last entry in "Shared" was dropped/);
    assert.deepEqual(texts(manager, id), ['question', 'answer', 'not blocked for ever']);
    await manager.dispose();

    const saved = readFileSync(filePath(id));
    assert.deepEqual(saved.subarray(0, intact.length), intact, 'the half line was cut before appending');
    const { manager: reopened, problems: later } = await StateManager.open(storage.dir());
    assert.deepEqual(later, []);
    assert.deepEqual(texts(reopened, id), ['question', 'answer', 'not blocked for ever']);
    await reopened.dispose();
  });
});
