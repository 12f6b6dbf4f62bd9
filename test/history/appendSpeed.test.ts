import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeEvent, LOG_FORMAT_VERSION } from '../../src/core/history/conversationLog';
import { StateManager } from '../../src/core/history/stateManager';
import { agentRun, assistantMessage, useTempStorage, userMessage } from './historyBuilders';

const STORED = 2000;

describe('history: append speed with a large history', function () {
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

  it(`keeps the median append under 5 ms with ${STORED} conversations stored`, async () => {
    const ids = seedConversations();
    await (await StateManager.open(storage.dir())).manager.dispose(); // builds index.json once

    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.equal(manager.listConversations().length, STORED);
    const targets = ids.slice(0, 20);
    const timings: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await manager.appendMessage(targets[i % targets.length]!, i % 2 ? userMessage(`turn ${i}`) : agentRun({ answer: `run ${i}` }));
      timings.push(performance.now() - started);
    }
    await manager.dispose();

    timings.sort((a, b) => a - b);
    const median = timings[Math.floor(timings.length / 2)]!;
    assert.ok(median < 5, `median append took ${median.toFixed(2)} ms`);
  });
});
