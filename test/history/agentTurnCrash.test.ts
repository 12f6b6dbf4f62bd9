import { strict as assert } from 'node:assert';
import { StateManager, type AgentTurnMessage } from '../../src/core/history';
import { INTERRUPTED_MESSAGE } from '../../src/core/history/conversationModel';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { killRunningFixtures, startFixture } from './childProcesses';
import { useTempStorage } from './historyBuilders';

/** Security promise #12 for agent mode: a window killed mid-turn keeps every tool call that had finished. */
describe('history: an agent turn killed mid-turn (kill -9)', function () {
  this.timeout(60_000);
  afterEach(killRunningFixtures); // first, so no child is still writing when the folder is removed
  const storage = useTempStorage();
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(async () => {
    ws = tempWorkspace({ 'a.txt': 'ALPHA_CONTENT\n', 'b.txt': 'BRAVO_CONTENT\n', 'c.txt': 'CHARLIE_CONTENT\n' });
    server = new OpenAiTestServer([
      { text: 'Reading a first.', toolCalls: [{ id: 'ra', name: 'read_file', arguments: { path: 'a.txt' } }] },
      { toolCalls: [{ id: 'rb', name: 'read_file', arguments: { path: 'b.txt' } }] },
      { toolCalls: [{ id: 'rc', name: 'read_file', arguments: { path: 'c.txt' } }] },
      { stall: 'before-headers' }, // the fourth model call never answers: the turn is still running when killed
    ]);
    await server.start();
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('keeps the turn with the three finished calls, its narration and counts, shown as interrupted, and searchable', async () => {
    const child = startFixture('agentTurnChild.ts', [storage.dir(), ws.root, server.url]);
    await child.waitFor('saved 3');
    await server.waitForRequests(4, 30_000);
    child.process.kill('SIGKILL');
    await child.exited();
    assert.equal(child.lines.includes('finished'), false, 'the turn was still running');

    const { manager, problems } = await StateManager.open(storage.dir());
    try {
      assert.deepEqual(problems, []);
      const [summary] = manager.listConversations();
      const messages = manager.getConversation(summary!.id)!.messages;
      assert.deepEqual(
        messages.map((m) => m.kind),
        ['user', 'agent-turn'],
      );
      const turn = messages[1] as AgentTurnMessage;
      assert.deepEqual([turn.status, turn.error], ['stopped', INTERRUPTED_MESSAGE]);
      assert.deepEqual(
        turn.toolCalls.map((call) => [call.id, call.tool, call.status]),
        [
          ['ra', 'read_file', 'ok'],
          ['rb', 'read_file', 'ok'],
          ['rc', 'read_file', 'ok'],
        ],
      );
      assert.deepEqual(
        turn.toolCalls.map((call) => /(ALPHA|BRAVO|CHARLIE)_CONTENT/.exec(call.output ?? '')?.[1]),
        ['ALPHA', 'BRAVO', 'CHARLIE'],
      );
      // The narration and the counts so far ride along with the call records.
      assert.equal(turn.answer, 'Reading a first.');
      assert.equal(turn.iterations, 3);
      assert.ok((turn.tokens?.total ?? 0) > 0, 'the tokens so far are kept');
      assert.deepEqual(
        manager.search('CHARLIE_CONTENT').map((s) => s.id),
        [summary!.id],
      );
    } finally {
      await manager.dispose();
    }
  });
});
