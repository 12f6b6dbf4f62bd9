import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import type { ConversationSummary } from '../../src/core/history/conversationTypes';
import { untilFileHolds } from '../support/fileEvents';
import { agentRun, useTempStorage, userMessage } from './historyBuilders';

describe('history: index.json', () => {
  const storage = useTempStorage();
  const indexPath = () => join(storage.dir(), 'index.json');
  const idsIn = (text: string) => (JSON.parse(text) as { conversations: { summary: ConversationSummary }[] }).conversations.map((e) => e.summary.id).sort();
  const indexedIds = () => idsIn(readFileSync(indexPath(), 'utf8'));

  /** Three conversations with content; returns what the history list showed. */
  async function seed(): Promise<ConversationSummary[]> {
    const { manager } = await StateManager.open(storage.dir());
    for (const text of ['alpha', 'beta', 'gamma']) {
      const conversation = await manager.createConversation();
      await manager.appendMessage(conversation.id, userMessage(`${text} question`));
      await manager.appendMessage(conversation.id, agentRun({ answer: `${text} answer` }));
    }
    const listed = manager.listConversations();
    await manager.dispose();
    return listed;
  }

  async function listAfterReopen(): Promise<ConversationSummary[]> {
    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const listed = manager.listConversations();
    await manager.dispose();
    return listed;
  }

  it('rebuilds a missing index from the conversation files', async () => {
    const listed = await seed();
    rmSync(indexPath());
    assert.deepEqual(await listAfterReopen(), listed);
    assert.deepEqual(indexedIds(), listed.map((s) => s.id).sort(), 'index.json written again');
  });

  it('rebuilds a corrupt index', async () => {
    const listed = await seed();
    writeFileSync(indexPath(), '{"version":1,"conversations":[{"summary":');
    assert.deepEqual(await listAfterReopen(), listed);
    assert.deepEqual(indexedIds(), listed.map((s) => s.id).sort());
  });

  it('heals a stale index: a file newer than its entry, a file with no entry, an entry with no file', async () => {
    const listed = await seed();
    const staleIndex = readFileSync(indexPath(), 'utf8');
    const [first, second] = listed;

    const { manager } = await StateManager.open(storage.dir());
    await manager.appendMessage(first!.id, userMessage('added after the index was written'));
    const extra = await manager.createConversation('Not in the old index');
    await manager.delete(second!.id);
    await manager.dispose();
    writeFileSync(indexPath(), staleIndex); // as if the process died before the index was rewritten

    const reopened = await listAfterReopen();
    assert.deepEqual(reopened.map((s) => s.title).sort(), ['Not in the old index', 'alpha question', 'gamma question'].sort());
    const healed = reopened.find((s) => s.id === first!.id);
    assert.equal(healed?.messageCount, 3);
    assert.equal(healed?.preview, 'added after the index was written');
    assert.deepEqual(indexedIds(), [first!.id, extra.id, listed[2]!.id].sort());
  });

  it('sees appends a process made but never indexed (it was killed before the index write)', async () => {
    await seed();
    // Timestamps are in milliseconds: within the seed's last one, "newest first" would be a tie broken by random ids.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const { manager: crashed } = await StateManager.open(storage.dir(), { indexDelayMs: 60_000 });
    const conversation = await crashed.createConversation();
    await crashed.appendMessage(conversation.id, userMessage('never indexed'));
    // No flush or dispose: the index on disk does not know this conversation.
    assert.ok(!indexedIds().includes(conversation.id));

    const listed = await listAfterReopen();
    assert.equal(listed[0]?.id, conversation.id);
    assert.equal(listed[0]?.title, 'never indexed');
    await crashed.dispose();
  });

  it('does not rewrite the index on every append; a quiet period or flush() writes it', async () => {
    await seed();
    const { manager } = await StateManager.open(storage.dir(), { indexDelayMs: 60_000 });
    const before = readFileSync(indexPath(), 'utf8');
    const conversation = await manager.createConversation('Later');
    for (let i = 0; i < 5; i++) await manager.appendMessage(conversation.id, userMessage(`turn ${i}`));
    assert.equal(readFileSync(indexPath(), 'utf8'), before, 'appends left index.json alone');
    await manager.flush();
    assert.ok(indexedIds().includes(conversation.id), 'flush() wrote it');
    await manager.dispose();

    const { manager: quick } = await StateManager.open(storage.dir(), { indexDelayMs: 10 });
    const another = await quick.createConversation('Debounced');
    // index.json is replaced atomically (a rename), so every version read here is whole.
    await untilFileHolds(indexPath(), (text) => idsIn(text).includes(another.id), 'index.json to be written after the quiet period, without flush()');
    await quick.dispose();
  });

  it('removes temp files left by a killed writer, but not those of a live process', async () => {
    await seed();
    const abandoned = 'index.json.99999999-0badf00d.tmp'; // beyond any pid_max, so no such process
    const live = `index.json.${process.pid}-c0ffee00.tmp`;
    writeFileSync(join(storage.dir(), abandoned), '{"half":');
    writeFileSync(join(storage.dir(), live), '{"half":');

    await listAfterReopen();
    const names = readdirSync(storage.dir());
    assert.ok(!names.includes(abandoned));
    assert.ok(names.includes(live));
  });
});
