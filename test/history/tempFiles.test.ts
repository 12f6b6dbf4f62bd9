import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StateManager } from '../../src/core/history/stateManager';
import { killRunningFixtures, startFixture, type HistoryChild } from './childProcesses';
import { useTempStorage } from './historyBuilders';

/** Waits until the kernel reports the process stopped (Linux); elsewhere gives the signal a moment. */
async function untilStopped(pid: number): Promise<void> {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return sleep(100);
  while (readFileSync(stat, 'utf8').split(') ')[1]?.[0] !== 'T') await sleep(1);
}

/**
 * Freezes the child (SIGSTOP) at a moment when a temp file of its own is in the folder, i.e. in the
 * middle of writing a new conversation file; returns that temp file's name.
 */
async function stopMidWrite(child: HistoryChild, folder: string): Promise<string> {
  while (!child.lines.includes('done')) {
    const temp = readdirSync(folder).find((name) => name.endsWith('.tmp'));
    if (temp) {
      child.process.kill('SIGSTOP');
      await untilStopped(child.process.pid!);
      if (existsSync(join(folder, temp))) return temp;
      child.process.kill('SIGCONT'); // it renamed the file just before stopping; try the next one
    }
    await sleep(1);
  }
  throw new Error('the child finished before it could be caught mid-write');
}

describe('history: temp files from interrupted writes', function () {
  this.timeout(120_000);
  afterEach(killRunningFixtures); // first, so no child is still writing when the folder is removed
  const storage = useTempStorage();
  const conversations = () => join(storage.dir(), 'conversations');

  it("keeps a live writer's temp file, and removes it once that writer is killed mid-write", async () => {
    mkdirSync(conversations(), { recursive: true });
    const child = startFixture('createLoop.ts', [storage.dir()]);
    await child.waitFor('ready');
    const temp = await stopMidWrite(child, conversations());

    const { manager: whileStopped } = await StateManager.open(storage.dir());
    assert.ok(readdirSync(conversations()).includes(temp), 'another window mid-write keeps its temp file');
    await whileStopped.dispose();

    child.process.kill('SIGKILL');
    await child.exited();
    const { manager, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    assert.deepEqual(
      readdirSync(conversations()).filter((name) => name.endsWith('.tmp')),
      [],
      "the dead writer's temp file is gone",
    );
    assert.deepEqual(readdirSync(join(storage.dir(), 'locks')), [], 'and so is its lock');
    const files = readdirSync(conversations()).filter((name) => name.endsWith('.jsonl'));
    assert.equal(manager.listConversations().length, files.length, 'every conversation it finished still loads');
    await manager.dispose();
  });

  it('removes a temp file older than an hour even if its pid is alive (the pid was reused)', async () => {
    mkdirSync(conversations(), { recursive: true });
    const old = join(conversations(), `${randomUUID()}.jsonl.${process.pid}-0badf00d.tmp`);
    const fresh = join(conversations(), `${randomUUID()}.jsonl.${process.pid}-c0ffee00.tmp`);
    for (const path of [old, fresh]) writeFileSync(path, '{"type":"create"');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);

    const { manager } = await StateManager.open(storage.dir());
    assert.ok(!existsSync(old));
    assert.ok(existsSync(fresh));
    await manager.dispose();
  });
});
