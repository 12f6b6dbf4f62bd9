import { strict as assert } from 'node:assert';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import { assistantMessage, readConversationFile, useTempStorage, userMessage } from './historyBuilders';

describe('history: damaged files', () => {
  const storage = useTempStorage();
  const conversationPath = (id: string) => join(storage.dir(), 'conversations', `${id}.jsonl`);
  const corruptDir = () => join(storage.dir(), 'corrupt');
  beforeEach(() => mkdirSync(join(storage.dir(), 'conversations'), { recursive: true }));

  /** A store holding one healthy conversation with two messages; returns its id. */
  async function healthyConversation(title = 'Healthy'): Promise<string> {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation(title);
    await manager.appendMessage(conversation.id, userMessage('question'));
    await manager.appendMessage(conversation.id, assistantMessage('answer'));
    await manager.dispose();
    return conversation.id;
  }

  it('moves garbage, a truncated header and bad JSON in the middle aside, keeping their bytes, and loads the rest', async () => {
    const healthy = await healthyConversation();
    const header = (id: string) => JSON.stringify({ type: 'create', v: 1, id, at: new Date().toISOString() });
    const damaged = new Map<string, Buffer>([
      [randomUUID(), randomBytes(600)],
      [randomUUID(), Buffer.from('{"type":"create","v":1,"id":"abc","at":"2024-01-0')],
      [randomUUID(), Buffer.alloc(0)],
    ]);
    const middleId = randomUUID();
    const message = (text: string) => JSON.stringify({ type: 'message', at: new Date().toISOString(), message: userMessage(text) });
    damaged.set(middleId, Buffer.from([header(middleId), message('one'), '{"type":"message", "at": oops', message('three'), ''].join('\n')));
    for (const [id, bytes] of damaged) writeFileSync(conversationPath(id), bytes);

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(
      manager.listConversations().map((s) => s.id),
      [healthy],
    );
    assert.equal(manager.getConversation(healthy)?.messages.length, 2);
    assert.equal(problems.length, damaged.size);
    for (const [id, bytes] of damaged) {
      assert.ok(
        problems.some((p) => p.includes(`${id}.jsonl`) && p.includes('moved to')),
        `problem reported for ${id}`,
      );
      assert.deepEqual(readFileSync(join(corruptDir(), `${id}.jsonl`)), bytes, 'original bytes preserved');
    }
    assert.ok(problems.find((p) => p.includes(middleId))?.includes('line 3'));
    assert.deepEqual(readdirSync(join(storage.dir(), 'conversations')), [`${healthy}.jsonl`]);
    await manager.dispose();
  });

  it('never overwrites a file already in corrupt/', async () => {
    const id = randomUUID();
    mkdirSync(corruptDir(), { recursive: true });
    writeFileSync(join(corruptDir(), `${id}.jsonl`), 'first damaged copy');
    writeFileSync(conversationPath(id), 'second damaged copy');

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.equal(problems.length, 1);
    const kept = readdirSync(corruptDir()).map((name) => readFileSync(join(corruptDir(), name), 'utf8'));
    assert.deepEqual(kept.sort(), ['first damaged copy', 'second damaged copy']);
    await manager.dispose();
  });

  it('treats a header naming another conversation as damage', async () => {
    const id = randomUUID();
    writeFileSync(conversationPath(id), JSON.stringify({ type: 'create', v: 1, id: randomUUID(), at: new Date().toISOString() }) + '\n');
    const { manager, problems } = await StateManager.open(storage.dir());
    assert.match(problems[0] ?? '', /different conversation/);
    assert.deepEqual(manager.listConversations(), []);
    await manager.dispose();
  });

  it('drops a torn last line, cuts it from the file, and appends cleanly afterwards', async () => {
    const id = await healthyConversation();
    const intact = readConversationFile(storage.dir(), id);
    appendFileSync(conversationPath(id), '{"type":"message","at":"2024-05-01T10:00:00.000Z","message":{"kind":"user","id":"x","crea');

    let { manager, problems } = await StateManager.open(storage.dir());
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /unfinished last entry in "Healthy" was dropped/);
    assert.equal(readConversationFile(storage.dir(), id), intact, 'file cut back to its last complete line');
    await manager.appendMessage(id, userMessage('after the crash'));
    await manager.dispose();

    ({ manager, problems } = await StateManager.open(storage.dir()));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      manager.getConversation(id)?.messages.map((m) => (m.kind === 'prompt-run' || m.kind === 'agent-turn' ? m.answer : m.text)),
      ['question', 'answer', 'after the crash'],
    );
    await manager.dispose();
  });

  it('keeps a complete last line that only lost its newline, and adds the newline back', async () => {
    const id = await healthyConversation();
    const text = readConversationFile(storage.dir(), id);
    writeFileSync(conversationPath(id), text.slice(0, -1));

    let { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.equal(manager.getConversation(id)?.messages.length, 2);
    await manager.appendMessage(id, userMessage('next'));
    await manager.dispose();

    ({ manager, problems } = await StateManager.open(storage.dir()));
    assert.deepEqual(problems, []);
    assert.equal(manager.getConversation(id)?.messages.length, 3);
    await manager.dispose();
  });

  it('leaves a file from a newer format version untouched and does not move it', async () => {
    const healthy = await healthyConversation();
    const id = randomUUID();
    const future = JSON.stringify({ type: 'create', v: 99, id, at: new Date().toISOString() }) + '\n{"type":"hologram"}\n';
    writeFileSync(conversationPath(id), future);

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.match(problems[0] ?? '', /newer CodeWiki.*left untouched/);
    assert.equal(readFileSync(conversationPath(id), 'utf8'), future);
    assert.deepEqual(
      manager.listConversations().map((s) => s.id),
      [healthy],
    );
    await manager.dispose();
  });

  it("moves a file damaged behind the index's back aside when it is first read, and reports it", async () => {
    const id = await healthyConversation();
    const path = conversationPath(id);
    const size = statSync(path).size;
    writeFileSync(path, 'x'.repeat(size));
    // Make the index vouch for the damaged file (as if it had been damaged without its stat changing).
    const indexPath = join(storage.dir(), 'index.json');
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { conversations: { size: number; mtimeMs: number }[] };
    index.conversations[0]!.mtimeMs = statSync(path).mtimeMs;
    writeFileSync(indexPath, JSON.stringify(index));

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.equal(manager.listConversations().length, 1, 'listed from the index without reading the file');
    assert.equal(manager.getConversation(id), undefined);
    const later = manager.takeProblems();
    assert.equal(later.length, 1);
    assert.match(later[0]!, /damaged/);
    assert.deepEqual(manager.listConversations(), []);
    assert.equal(readFileSync(join(corruptDir(), `${id}.jsonl`), 'utf8'), 'x'.repeat(size));
    await manager.dispose();
  });
});
