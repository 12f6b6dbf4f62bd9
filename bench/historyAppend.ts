import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeEvent, LOG_FORMAT_VERSION } from '../src/core/history/conversationLog';
import { StateManager } from '../src/core/history/stateManager';
import { agentRun, assistantMessage, userMessage } from '../test/history/historyBuilders';
import { type BenchRow, fmt, median } from './benchTable';

/** Seeds `count` conversations straight in the store's file format, so seeding 2,000 is quick. */
function seed(dir: string, count: number): string[] {
  const folder = join(dir, 'conversations');
  mkdirSync(folder, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const at = new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
    const events = [encodeEvent({ type: 'create', v: LOG_FORMAT_VERSION, id, at }), ...[userMessage(`q ${i}`), assistantMessage(`a ${i}`), agentRun()].map((message) => encodeEvent({ type: 'message', at, message }))];
    writeFileSync(join(folder, `${id}.jsonl`), events.join(''));
    return id;
  });
}

async function medianAppendMs(stored: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-bench-history-'));
  try {
    const ids = seed(dir, Math.max(stored, 1));
    await (await StateManager.open(dir)).manager.dispose(); // builds the index once, as a real profile has
    const { manager } = await StateManager.open(dir);
    const timings: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await manager.appendMessage(ids[i % Math.min(20, ids.length)], i % 2 ? userMessage(`turn ${i}`) : agentRun({ answer: `run ${i}` }));
      timings.push(performance.now() - started);
    }
    await manager.dispose();
    return median(timings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** StateManager.appendMessage (fsync'd append) with 10, 500 and 2,000 conversations stored. */
export async function benchHistoryAppend(): Promise<BenchRow[]> {
  const counts = [10, 500, 2000];
  const medians: number[] = [];
  for (const count of counts) medians.push(await medianAppendMs(count));
  const at2000 = medians[medians.length - 1];
  return [
    {
      figure: 'StateManager append (median of 300, fsync per message) with 10 / 500 / 2,000 conversations stored',
      result: medians.map((m) => `${fmt(m, 2)} ms`).join(' / '),
      goal: '< 5 ms, flat as the count grows',
      met: at2000 < 5 && at2000 < medians[0] * 3 + 0.5,
    },
  ];
}
