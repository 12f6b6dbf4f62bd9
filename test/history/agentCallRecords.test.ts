import { strict as assert } from 'node:assert';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentToolCall, AgentTurnMessage } from '../../src/core/history/conversationTypes';
import { StateManager } from '../../src/core/history/stateManager';
import { killRunningFixtures, startFixture, startTogether } from './childProcesses';
import { callNumber } from './fixtures/agentCallWriter';
import { readConversationFile, useTempStorage, userMessage } from './historyBuilders';

const OLD_FILE_ID = '6f1c2a9e-4b7d-4e21-9a53-0c8d7e2f1b44';

function streamingTurn(id = 'turn-1'): AgentTurnMessage {
  return { kind: 'agent-turn', id, createdAt: new Date().toISOString(), answer: '', status: 'streaming', toolCalls: [] };
}

function call(i: number, over: Partial<AgentToolCall> = {}): AgentToolCall {
  return {
    id: `call_${i}`,
    tool: 'read_file',
    displayName: 'Read file',
    kind: 'read',
    argsSummary: `path="src/f${i}.ts"`,
    args: { path: `src/f${i}.ts` },
    iteration: 1 + (i >> 2),
    status: 'ok',
    durationMs: 3,
    output: `OUT_${i}_` + 'x'.repeat(2048),
    ...over,
  };
}

function lines(storageDir: string, id: string): Array<Record<string, unknown>> {
  return readConversationFile(storageDir, id)
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('history: agent turns saved one call at a time', () => {
  const storage = useTempStorage();

  it('appends each call as a record the size of the call, and folds the records into the turn on load', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const { id } = await manager.createConversation();
    await manager.appendMessage(id, userMessage('read everything'));
    await manager.upsertMessage(id, streamingTurn());
    const file = join(storage.dir(), 'conversations', `${id}.jsonl`);
    const growth: number[] = [];
    for (let i = 0; i < 200; i++) {
      const before = statSync(file).size;
      await manager.appendAgentCall(id, 'turn-1', call(i, { status: 'running', output: undefined, durationMs: undefined }));
      await manager.appendAgentCall(id, 'turn-1', call(i), {
        answerAdded: `step ${i}. `,
        tokens: { input: i, output: 1, total: i + 1 },
        iterations: 1 + (i >> 2),
        ...(i === 7 ? { warningsAdded: ['slow disk'], model: 'qwen' } : {}),
      });
      growth.push(statSync(file).size - before);
    }
    // Each call costs the same whether it is the first or the 200th: nothing earlier is written again.
    const oneCall = JSON.stringify(call(199)).length;
    assert.ok(Math.max(...growth) < 2 * oneCall + 1024, `a call wrote ${Math.max(...growth)} bytes; the call itself is ${oneCall}`);
    assert.ok(growth[199]! - growth[0]! < 64, 'the 200th call writes as much as the first');
    await manager.dispose();

    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const turn = reopened.getConversation(id)!.messages[1] as AgentTurnMessage;
    assert.deepEqual(
      turn.toolCalls,
      Array.from({ length: 200 }, (_, i) => call(i)),
      'every call, in the order they started, as it ended',
    );
    assert.equal(turn.answer, Array.from({ length: 200 }, (_, i) => `step ${i}. `).join(''));
    assert.deepEqual([turn.warnings, turn.model, turn.iterations, turn.tokens], [['slow disk'], 'qwen', 50, { input: 199, output: 1, total: 200 }]);
    assert.deepEqual([turn.status, turn.error !== undefined], ['stopped', true], 'a turn whose end was never saved reads back as interrupted');
    assert.deepEqual(
      reopened.search('OUT_123_').map((s) => s.id),
      [id],
      'search finds the output of a call saved as a record',
    );
    assert.match(reopened.exportMarkdown(id), /200\. ✓ `read_file` path="src\/f199\.ts" \(ok, 3 ms\)\n\n```text\nOUT_199_x/);
    await reopened.dispose();
  });

  it('a record written while the turn itself waits to be saved is not counted twice', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const { id } = await manager.createConversation();
    const folder = join(storage.dir(), 'conversations');
    // The folder becomes a file: the turn and its first call stay queued (ENOTDIR) until it is back.
    renameSync(folder, `${folder}.away`);
    writeFileSync(folder, 'not a folder');
    await assert.rejects(manager.upsertMessage(id, streamingTurn()), { name: 'StorageWriteError' });
    await assert.rejects(manager.appendAgentCall(id, 'turn-1', call(1), { answerAdded: 'Once.' }), { name: 'StorageWriteError' });
    rmSync(folder);
    renameSync(`${folder}.away`, folder);
    await manager.flush();
    await manager.dispose();

    const { manager: reopened } = await StateManager.open(storage.dir());
    const turn = reopened.getConversation(id)!.messages[0] as AgentTurnMessage;
    assert.equal(turn.answer, 'Once.');
    assert.deepEqual(
      turn.toolCalls.map((c) => c.id),
      ['call_1'],
    );
    await reopened.dispose();
  });

  it('refuses a call for a turn the conversation does not have, and drops such a record found on disk', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const { id } = await manager.createConversation();
    await manager.upsertMessage(id, streamingTurn());
    await assert.rejects(manager.appendAgentCall(id, 'no-such-turn', call(1)), /No agent turn "no-such-turn"/);
    await assert.rejects(manager.appendAgentCall(id, 'turn-1', { ...call(1), status: 'maybe' } as unknown as AgentToolCall), { name: 'InvalidMessageError' });
    await manager.dispose();
    appendFileSync(
      join(storage.dir(), 'conversations', `${id}.jsonl`),
      JSON.stringify({ type: 'agent-call', at: new Date().toISOString(), turnId: 'gone', call: call(2) }) + '\n',
    );
    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.deepEqual((reopened.getConversation(id)!.messages[0] as AgentTurnMessage).toolCalls, []);
    await reopened.dispose();
  });

  describe('a file written in format 1 (every save of an agent turn a whole copy)', () => {
    function installOldFile(): string {
      mkdirSync(join(storage.dir(), 'conversations'), { recursive: true });
      const target = join(storage.dir(), 'conversations', `${OLD_FILE_ID}.jsonl`);
      copyFileSync(join(__dirname, 'fixtures', 'format1', `${OLD_FILE_ID}.jsonl`), target);
      return target;
    }

    it('loads as it always did: the last copy of the turn, its calls, search and export', async () => {
      const path = installOldFile();
      const bytes = readFileSync(path);
      const { manager, problems } = await StateManager.open(storage.dir());
      assert.deepEqual(problems, []);
      const conversation = manager.getConversation(OLD_FILE_ID)!;
      assert.equal(conversation.title, 'Word frequency');
      assert.deepEqual(
        conversation.messages.map((m) => m.kind),
        ['user', 'agent-turn'],
      );
      const turn = conversation.messages[1] as AgentTurnMessage;
      assert.deepEqual(
        [turn.status, turn.model, turn.tokens?.total, turn.toolCalls.map((c) => `${c.id}:${c.status}`)],
        ['done', 'qwen2.5-coder-1.5b', 1570, ['call_1:ok', 'call_2:ok']],
      );
      assert.match(turn.answer, /`src\/wordFrequency\.ts:4`/);
      assert.deepEqual(
        manager.search('new Map<string, number>').map((s) => s.id),
        [OLD_FILE_ID],
      );
      assert.match(manager.exportMarkdown(OLD_FILE_ID), /2\. ✓ `read_file` path="src\/wordFrequency\.ts" \(ok, 5 ms\)/);
      await manager.dispose();
      assert.deepEqual(readFileSync(path), bytes, 'reading it changed nothing');
    });

    it('is rewritten in the current format before its first call record, so an older CodeWiki never meets a line it cannot read', async () => {
      installOldFile();
      const { manager } = await StateManager.open(storage.dir());
      await manager.appendMessage(OLD_FILE_ID, userMessage('and where is it printed?'));
      assert.equal(lines(storage.dir(), OLD_FILE_ID)[0]!.v, 1, 'plain messages still go into the old format');
      await manager.upsertMessage(OLD_FILE_ID, streamingTurn('turn-2'));
      await manager.appendAgentCall(OLD_FILE_ID, 'turn-2', call(1), { answerAdded: 'Looking.' });
      await manager.appendAgentCall(OLD_FILE_ID, 'turn-2', call(2));
      await manager.dispose();

      const written = lines(storage.dir(), OLD_FILE_ID);
      assert.equal(written[0]!.v, 2);
      assert.deepEqual(
        written.map((l) => l.type),
        ['create', 'message', 'message', 'message', 'message', 'agent-call'],
        'one copy of each message, then the records',
      );
      const { manager: reopened } = await StateManager.open(storage.dir());
      const conversation = reopened.getConversation(OLD_FILE_ID)!;
      assert.equal(conversation.title, 'Word frequency');
      assert.deepEqual(
        conversation.messages.map((m) => m.id),
        ['u1', 'turn-1', conversation.messages[2]!.id, 'turn-2'],
      );
      assert.deepEqual(
        (conversation.messages[1] as AgentTurnMessage).toolCalls.map((c) => c.id),
        ['call_1', 'call_2'],
      );
      const latest = conversation.messages[3] as AgentTurnMessage;
      assert.deepEqual([latest.answer, latest.toolCalls.map((c) => c.id)], ['Looking.', ['call_1', 'call_2']]);
      assert.ok(!existsSync(join(storage.dir(), 'corrupt')));
      await reopened.dispose();
    });
  });
});

describe('history: agent-call records from two processes at once', function () {
  this.timeout(120_000);
  afterEach(killRunningFixtures);
  const storage = useTempStorage();

  it('keeps every acknowledged call and message when one window records calls while another appends, in a format-1 file', async () => {
    mkdirSync(join(storage.dir(), 'conversations'), { recursive: true });
    copyFileSync(join(__dirname, 'fixtures', 'format1', `${OLD_FILE_ID}.jsonl`), join(storage.dir(), 'conversations', `${OLD_FILE_ID}.jsonl`));
    const agent = startFixture('agentCallWriter.ts', [storage.dir(), OLD_FILE_ID, 'turn-live', '30']);
    const chat = startFixture('historyWriter.ts', [storage.dir(), OLD_FILE_ID, 'B', '15', '3000']);
    await startTogether([agent, chat]);
    await Promise.all([agent.exited(), chat.exited()]);

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const messages = manager.getConversation(OLD_FILE_ID)!.messages;
    const turn = messages.find((m) => m.id === 'turn-live') as AgentTurnMessage;
    const acked = agent.lines.filter((line) => line.startsWith('ack ')).map((line) => line.slice(4));
    assert.equal(acked.length, 30);
    assert.deepEqual(
      turn.toolCalls,
      Array.from({ length: 30 }, (_, i) => callNumber(i + 1)),
    );
    assert.equal(turn.answer, Array.from({ length: 30 }, (_, i) => `step ${i + 1}. `).join(''));
    const chatAcked = chat.lines.filter((line) => line.startsWith('ack ')).map((line) => line.slice(4));
    assert.equal(chatAcked.length, 30);
    assert.deepEqual(
      chatAcked.filter((id) => !messages.some((m) => m.id === id)),
      [],
      'every message of the other window is there',
    );
    assert.equal(messages.length, 2 + 1 + 30, "the old messages, the turn and the other window's 30");
    assert.equal(lines(storage.dir(), OLD_FILE_ID)[0]!.v, 2);
    assert.ok(!existsSync(join(storage.dir(), 'corrupt')), 'nothing was judged damaged');
    await manager.dispose();
  });
});
