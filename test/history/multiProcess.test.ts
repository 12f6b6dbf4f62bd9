import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import type { ChatMessage } from '../../src/core/history/conversationTypes';
import { killRunningFixtures, startFixture, startTogether, type HistoryChild } from './childProcesses';
import { answerText } from './fixtures/historyWriter';
import { useTempStorage } from './historyBuilders';

/** The ids a writer child was told were saved, in order. */
function acknowledged(child: HistoryChild): string[] {
  return child.lines.filter((line) => line.startsWith('ack ')).map((line) => line.slice(4));
}

function startWriter(dir: string, conversationId: string, label: string, turns: number, answerBytes: number): HistoryChild {
  return startFixture('historyWriter.ts', [dir, conversationId, label, String(turns), String(answerBytes)]);
}

/** Checks that every message a writer had acknowledged is on disk, whole and in the writer's order. */
function assertAllSaved(messages: ChatMessage[], writer: HistoryChild, label: string, answerBytes: number): void {
  const byId = new Map(messages.map((m, position) => [m.id, { message: m, position }]));
  const acked = acknowledged(writer);
  const missing = acked.filter((id) => !byId.has(id));
  assert.deepEqual(missing, [], `${missing.length} of ${acked.length} acknowledged messages from ${label} are missing`);
  const positions = acked.map((id) => byId.get(id)!.position);
  assert.deepEqual(
    positions,
    [...positions].sort((a, b) => a - b),
    `${label}'s messages keep their order`,
  );
  acked.forEach((id, i) => {
    const { message } = byId.get(id)!;
    const turn = Math.floor(i / 2) + 1;
    if (message.kind === 'assistant') {
      assert.equal(message.status, 'done', `${label} answer ${turn} is saved in its final version`);
      assert.equal(message.text, answerText(label, turn, answerBytes));
    } else {
      assert.equal(message.kind === 'user' && message.text, `${label} question ${turn}`);
    }
  });
}

describe('history: several processes sharing one folder', function () {
  this.timeout(180_000);
  afterEach(killRunningFixtures); // first, so no child is still writing when the folder is removed
  const storage = useTempStorage();

  async function newConversation(): Promise<string> {
    const { manager } = await StateManager.open(storage.dir());
    const { id } = await manager.createConversation('Shared');
    await manager.dispose();
    return id;
  }

  it('loses no acknowledged message while another process keeps opening the store', async () => {
    const id = await newConversation();
    // Long lines take a while to write, so a reader often sees one half done (and FileHandle.appendFile,
    // which the store used before, even splits anything over 512 KB into several write() calls).
    const answerBytes = 700 * 1024;
    const writer = startWriter(storage.dir(), id, 'A', 40, answerBytes);
    const reopeners = [startFixture('historyReopener.ts', [storage.dir()]), startFixture('historyReopener.ts', [storage.dir()])];
    await startTogether([writer, ...reopeners]);
    await writer.exited();
    for (const reopener of reopeners) reopener.send('stop');
    await Promise.all(reopeners.map((r) => r.exited()));

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const messages = manager.getConversation(id)?.messages ?? [];
    assert.equal(acknowledged(writer).length, 80);
    assertAllSaved(messages, writer, 'A', answerBytes);
    assert.equal(messages.length, 80, 'nothing else slipped in');
    assert.ok(!existsSync(join(storage.dir(), 'corrupt')), 'nothing was judged damaged');
    const reported = reopeners.flatMap((r) => r.lines.filter((line) => line.startsWith('problem ')));
    assert.deepEqual(reported, [], 'the readers took no live write for a torn entry');
    await manager.dispose();
  });

  it('keeps every message two processes append to one conversation, and the history list counts them all', async () => {
    const id = await newConversation();
    // Over 512 KB: FileHandle.appendFile writes such a line in several write() calls, which another
    // appender could split; the store now writes each batch in one call, under the conversation's lock.
    const answerBytes = 600 * 1024;
    const writers = [startWriter(storage.dir(), id, 'A', 8, answerBytes), startWriter(storage.dir(), id, 'B', 8, answerBytes)];
    await startTogether(writers);
    await Promise.all(writers.map((w) => w.exited()));

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const [listed] = manager.listConversations(); // from index.json, which the last writer to finish wrote
    const messages = manager.getConversation(id)?.messages ?? [];
    assertAllSaved(messages, writers[0]!, 'A', answerBytes);
    assertAllSaved(messages, writers[1]!, 'B', answerBytes);
    assert.equal(messages.length, 32);
    const [fromFile] = manager.listConversations(); // rebuilt from the file now that it has been read
    assert.equal(listed?.messageCount, 32, "the index counts both processes' messages");
    assert.deepEqual(listed, fromFile, 'the index entry says what the file says');
    assert.ok(!existsSync(join(storage.dir(), 'corrupt')), 'nothing was judged damaged');
    await manager.dispose();
  });
  it('rebuilds the history list entry from the file when the other process wrote last (small answers, no damage)', async () => {
    const id = await newConversation();
    const writers = [startWriter(storage.dir(), id, 'A', 25, 2000), startWriter(storage.dir(), id, 'B', 25, 2000)];
    await startTogether(writers);
    await Promise.all(writers.map((w) => w.exited()));

    const { manager } = await StateManager.open(storage.dir());
    const [listed] = manager.listConversations();
    const messages = manager.getConversation(id)?.messages ?? [];
    assert.equal(messages.length, 100, "both processes' messages are in the file");
    assert.equal(listed?.messageCount, 100, 'and the index written by whichever process finished last counts them all');
    assert.deepEqual(listed, manager.listConversations()[0]);
    await manager.dispose();
  });
});
