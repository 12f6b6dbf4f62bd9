import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import type { ChatMessage } from '../../src/core/history/conversationTypes';
import { useTempStorage } from './historyBuilders';

const FIXTURE = join(__dirname, 'fixtures', 'appendLoop.ts');

/** Starts the append loop and SIGKILLs it a random moment after it reports that it is writing. */
function runAndKill(storageDir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, storageDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) setTimeout(() => child.kill('SIGKILL'), 20 + Math.random() * 180);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve();
      else reject(new Error(`append loop ended on its own (code ${code}): ${stderr}`));
    });
  });
}

/**
 * A SIGKILL only rarely lands inside the write() of a line, so also simulate that outcome: cut the most
 * recently written conversation file somewhere inside its last line, as an interrupted write would.
 */
function tearLastLineOfNewestFile(storageDir: string): string {
  const folder = join(storageDir, 'conversations');
  const newest = readdirSync(folder)
    .map((name) => join(folder, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
  const bytes = readFileSync(newest);
  const lineStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  truncateSync(newest, lineStart + 1 + Math.floor(Math.random() * (bytes.length - lineStart - 2)));
  return newest;
}

function messageNumber(message: ChatMessage): number {
  const text = message.kind === 'prompt-run' || message.kind === 'agent-turn' ? message.answer : message.text;
  return Number(text.split(' ')[0]);
}

describe('history: crash safety', function () {
  this.timeout(120_000);
  const storage = useTempStorage();

  it('keeps every older message when the process is killed mid-write, again and again', async () => {
    const seen = new Map<string, number>();
    const droppedTornLines: string[] = [];

    for (let run = 1; run <= 6; run++) {
      await runAndKill(storage.dir());
      tearLastLineOfNewestFile(storage.dir());
      const { manager, problems } = await StateManager.open(storage.dir());
      // The only acceptable problems are turns that were in flight when the process died.
      assert.ok(problems.length >= 1, 'the torn line is reported');
      for (const problem of problems) assert.match(problem, /unfinished last entry/);
      droppedTornLines.push(...problems);

      const summaries = manager.listConversations();
      assert.equal(summaries.length, run * 2, 'every conversation created so far loads');
      for (const { id } of summaries) {
        const numbers = manager.getConversation(id)?.messages.map(messageNumber) ?? [];
        assert.deepEqual(
          numbers,
          numbers.map((_, i) => i + 1),
          `conversation ${id} is a gap-free prefix 1..k`,
        );
        assert.ok(numbers.length >= (seen.get(id) ?? 0), `conversation ${id} lost messages it had before`);
        seen.set(id, numbers.length);
      }
      await manager.dispose();
    }
    assert.deepEqual(
      readdirSync(storage.dir()).filter((name) => name === 'corrupt'),
      [],
      'nothing was judged corrupt',
    );
    // More than 6 means a real kill tore a line too; whether that happens depends on timing.
    assert.ok(droppedTornLines.length >= 6);
  });
});
