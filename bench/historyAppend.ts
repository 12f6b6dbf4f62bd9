import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { encodeEvent, LOG_FORMAT_VERSION } from '../src/core/history/conversationLog';
import type { AgentToolCall, AgentTurnMessage } from '../src/core/history/conversationTypes';
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
    const events = [
      encodeEvent({ type: 'create', v: LOG_FORMAT_VERSION, id, at }),
      ...[userMessage(`q ${i}`), assistantMessage(`a ${i}`), agentRun()].map((message) => encodeEvent({ type: 'message', at, message })),
    ];
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

const WRITER_FLAG = '--history-append-writer';
const APPENDS_PER_WRITER = 300;

/**
 * Median append time when `writers` separate processes (as separate VS Code windows would) append to the
 * same 20 conversations at once: each append then waits for the conversation's lock, and usually first
 * re-reads lines the other process has just added.
 */
async function medianAppendMsAcrossProcesses(writers: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-bench-history-'));
  try {
    const ids = seed(dir, 20);
    await (await StateManager.open(dir)).manager.dispose();
    const children = Array.from({ length: writers }, () => startWriterProcess(dir, ids));
    await Promise.all(children.map((c) => c.ready));
    for (const child of children) child.go();
    const timings = (await Promise.all(children.map((c) => c.timings))).flat();
    return median(timings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function startWriterProcess(dir: string, ids: string[]): { ready: Promise<void>; go: () => void; timings: Promise<number[]> } {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename, WRITER_FLAG, dir, ids.join(',')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  let timings: number[] | undefined;
  const ready = new Promise<void>((resolve) => lines.on('line', (line) => (line === 'ready' ? resolve() : (timings = JSON.parse(line) as number[]))));
  const done = new Promise<number[]>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 && timings ? resolve(timings) : reject(new Error(`history append writer exited with ${code}`)))),
  );
  return { ready, go: () => child.stdin.end('go\n'), timings: done };
}

/** The child side: opens the shared store, waits for `go`, appends, prints its timings as JSON. */
async function runWriterProcess(dir: string, ids: string[]): Promise<void> {
  const { manager } = await StateManager.open(dir);
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => createInterface({ input: process.stdin }).once('line', () => resolve()));
  process.stdin.destroy();
  const timings: number[] = [];
  for (let i = 0; i < APPENDS_PER_WRITER; i++) {
    const started = performance.now();
    await manager.appendMessage(ids[i % ids.length], i % 2 ? userMessage(`turn ${i}`) : agentRun({ answer: `run ${i}` }));
    timings.push(performance.now() - started);
  }
  await manager.dispose();
  process.stdout.write(JSON.stringify(timings) + '\n');
}

/**
 * StateManager.appendMessage (fsync'd append) with 10, 500 and 2,000 conversations stored, and with one
 * against two processes appending to the same conversations at once.
 */
export async function benchHistoryAppend(): Promise<BenchRow[]> {
  const counts = [10, 500, 2000];
  const medians: number[] = [];
  for (const count of counts) medians.push(await medianAppendMs(count));
  const at2000 = medians[medians.length - 1];
  const perCall = await agentTurnSaves(200);
  const oneWriter = await medianAppendMsAcrossProcesses(1);
  const twoWriters = await medianAppendMsAcrossProcesses(2);
  return [
    {
      figure: 'StateManager append (median of 300, fsync per message) with 10 / 500 / 2,000 conversations stored',
      result: medians.map((m) => `${fmt(m, 2)} ms`).join(' / '),
      goal: '< 5 ms, flat as the count grows',
      met: at2000 < 5 && at2000 < medians[0] * 3 + 0.5,
    },
    {
      figure: `History append across processes (median of ${APPENDS_PER_WRITER} per writer, same 20 conversations): one writer / two writers at once`,
      result: `${fmt(oneWriter, 2)} ms / ${fmt(twoWriters, 2)} ms`,
      goal: '< 5 ms with two writers',
      met: twoWriters < 5,
    },
    {
      figure: `History save per tool call (a record when it starts, one when it ends) while an agent turn grows to ${perCall.calls} calls (2 KB output each): median / last save, bytes written in all (final save of the turn included)`,
      result: `${fmt(perCall.medianMs, 2)} ms / ${fmt(perCall.lastMs, 2)} ms, ${fmt(perCall.bytes / 1024 / 1024, 2)} MB`,
      goal: 'flat as the turn grows (median of the last 20 calls ≤ 2× the first 20)',
      met: perCall.lateMedianMs <= 2 * perCall.earlyMedianMs + 0.2,
    },
  ];
}

/**
 * What saving an agent-mode turn costs as it grows, done as a turn does it: the turn is saved whole
 * when it starts, each call as its own record when it starts and when it ends (with 2 KB of output),
 * and the turn whole once more at the end. A "save per call" is the call's two records; the figures
 * are the median and the last of those, and every byte the conversation file gained.
 */
export async function agentTurnSaves(
  calls: number,
): Promise<{ calls: number; medianMs: number; lastMs: number; lateMedianMs: number; earlyMedianMs: number; bytes: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'codewiki-bench-history-'));
  try {
    const [id] = seed(dir, 1);
    const reopened = (await StateManager.open(dir)).manager;
    const file = join(dir, 'conversations', `${id}.jsonl`);
    await reopened.appendMessage(id!, userMessage('warm up')); // the seeded file is rewritten in the current format here, not in the timings
    const sizeBefore = statSync(file).size;
    const turn: AgentTurnMessage = { kind: 'agent-turn', id: 'turn-1', createdAt: new Date().toISOString(), answer: '', status: 'streaming', toolCalls: [] };
    await reopened.upsertMessage(id!, turn);
    await reopened.appendAgentCall(id!, turn.id, {
      id: 'warm',
      tool: 'read_file',
      displayName: 'Read file',
      argsSummary: '',
      args: {},
      iteration: 0,
      status: 'ok',
    });
    const timings: number[] = [];
    for (let i = 0; i < calls; i++) {
      const call: AgentToolCall = {
        id: `call_${i}`,
        tool: 'read_file',
        displayName: 'Read file',
        argsSummary: `path="src/f${i}.ts"`,
        args: { path: `src/f${i}.ts` },
        iteration: 1 + (i >> 2),
        status: 'running',
      };
      const started = performance.now();
      await reopened.appendAgentCall(id!, turn.id, call);
      await reopened.appendAgentCall(
        id!,
        turn.id,
        { ...call, status: 'ok', durationMs: 3, output: 'x'.repeat(2048) },
        { tokens: { input: i, output: 1, total: i + 1 } },
      );
      timings.push(performance.now() - started);
    }
    const saved = reopened.getConversation(id!)!.messages.find((m) => m.id === turn.id)!;
    await reopened.upsertMessage(id!, { ...saved, status: 'done' } as AgentTurnMessage);
    await reopened.dispose();
    const bytes = statSync(file).size - sizeBefore;
    return {
      calls,
      medianMs: median(timings),
      lastMs: timings.at(-1)!,
      earlyMedianMs: median(timings.slice(0, 20)),
      lateMedianMs: median(timings.slice(-20)),
      bytes,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module && process.argv[2] === WRITER_FLAG) {
  runWriterProcess(process.argv[3]!, process.argv[4]!.split(',')).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
