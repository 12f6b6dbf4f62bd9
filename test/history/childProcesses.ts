import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

/** Real Node processes running a fixture from test/history/fixtures, as a second VS Code window would. */
export interface HistoryChild {
  readonly process: ChildProcess;
  /** Every stdout line so far (the fixtures print `ready`, `ack …`, `done`). */
  readonly lines: string[];
  /** Resolves once the child has printed `line`. */
  waitFor(line: string): Promise<void>;
  send(line: string): void;
  /** Resolves when the child exits cleanly or was killed; rejects with its stderr when it failed. */
  exited(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** For afterEach: a failed test must not leave its children writing into the next test's folder. */
export function killRunningFixtures(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

export function startFixture(name: string, args: string[]): HistoryChild {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', name), ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.line === line)) waiter.resolve();
  });
  const exit = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 || signal === 'SIGKILL' || signal === 'SIGTERM') resolve();
      else reject(new Error(`${name} failed (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
  exit.catch(() => undefined); // reported through exited() and waitFor(); a killed test may await neither
  return {
    process: child,
    lines,
    waitFor: (line) =>
      lines.includes(line)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiters.push({ line, resolve })),
            exit.then(() => Promise.reject(new Error(`${name} exited before "${line}": ${stderr}`))),
          ]),
    send: (line) => child.stdin!.write(`${line}\n`),
    exited: () => exit,
  };
}

/** Starts every child, waits until all have opened the store, then lets them go at once so they overlap. */
export async function startTogether(children: HistoryChild[]): Promise<void> {
  await Promise.all(children.map((c) => c.waitFor('ready')));
  for (const child of children) child.send('go');
}
