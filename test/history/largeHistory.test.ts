import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeEvent, LOG_FORMAT_VERSION } from '../../src/core/history/conversationLog';
import { StateManager } from '../../src/core/history/stateManager';
import { agentRun, assistantMessage, useTempStorage, userMessage } from './historyBuilders';

const STORED = 2000;

describe('history: a large history', function () {
  this.timeout(60_000);
  const storage = useTempStorage();

  /** Writes the files directly (same format as the store) so seeding 2,000 conversations is quick. */
  function seedConversations(): string[] {
    const folder = join(storage.dir(), 'conversations');
    mkdirSync(folder, { recursive: true });
    return Array.from({ length: STORED }, (_, i) => {
      const id = randomUUID();
      const at = new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
      const events = [
        encodeEvent({ type: 'create', v: LOG_FORMAT_VERSION, id, at }),
        ...[userMessage(`question ${i}`), assistantMessage(`answer ${i}`), agentRun()].map((message) => encodeEvent({ type: 'message', at, message })),
      ];
      writeFileSync(join(folder, `${id}.jsonl`), events.join(''));
      return id;
    });
  }

  it(`opens ${STORED} stored conversations and appends to them (timing lives in npm run bench)`, async () => {
    const ids = seedConversations();
    await (await StateManager.open(storage.dir())).manager.dispose(); // builds index.json once

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.equal(manager.listConversations().length, STORED);
    const targets = ids.slice(0, 20);
    for (let i = 0; i < 40; i++) {
      await manager.appendMessage(targets[i % targets.length]!, i % 2 ? userMessage(`turn ${i}`) : agentRun({ answer: `run ${i}` }));
    }
    await manager.dispose();

    const reopened = (await StateManager.open(storage.dir())).manager;
    assert.equal(reopened.listConversations().length, STORED);
    assert.equal(reopened.getConversation(targets[0]!)!.messages.length, 3 + 2);
    await reopened.dispose();
  });
});
