import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import { abortReason } from '../../util/abort';
import type { Workspace } from '../../workspace/workspace';
import { formatBytes } from '../../workspace/readTextFile';
import { WorkspaceAccessError, quotePath } from '../../workspace/workspaceErrors';
import { PreviewableTool, type PreparedToolCall } from './toolPreview';

export interface RunCommandOptions {
  /** The command is killed after this long. Default 60 s. */
  timeoutMs?: number;
  /** Bytes of stdout and of stderr kept (the start and the end; the middle is dropped with a marker). Default 32 KiB each. */
  maxOutputBytes?: number;
}

export const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;
const DEFAULT_COMMAND_OUTPUT_BYTES = 32 * 1024;
/** After SIGTERM, how long a command gets to exit before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** Never handed to a command: a prompt-injected `env` must not put the model key into the conversation. */
const WITHHELD_ENV = /^(CODEWIKI_API_KEY|OPENAI_API_KEY)$/i;

const schema = z.object({
  command: z.string().min(1).describe('A shell command line, e.g. "npm test" or "git status"'),
  cwd: z.string().optional().describe('Folder to run in, relative to the workspace root (default: the root)'),
});

/** `run_command`: one shell command inside the workspace, with a timeout and an output cap, killed on Stop. */
export function createRunCommandTool(workspace: Workspace, options: RunCommandOptions = {}) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_COMMAND_OUTPUT_BYTES;
  return new PreviewableTool(
    {
      name: 'run_command',
      description:
        `Run a shell command in the workspace (stdin closed, killed after ${Math.round(timeoutMs / 1000)} s) and return its ` +
        'exit code, stdout and stderr. The user approves each command before it runs; prefer one simple command per call.',
      schema,
    },
    async (input): Promise<PreparedToolCall> => {
      const cwd = await workspace.resolve(input.cwd ?? '.');
      if (!(await stat(cwd.absolute)).isDirectory())
        throw new WorkspaceAccessError('not-a-directory', input.cwd ?? '.', `${quotePath(input.cwd ?? '.')} is not a folder`);
      const display = workspace.displayPath(cwd);
      return {
        preview: { type: 'command', command: input.command, cwd: display, timeoutMs },
        apply: (signal) => runShell(input.command, cwd.absolute, display, { timeoutMs, maxOutputBytes, signal }),
      };
    },
  );
}

interface ShellOptions {
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
}

function runShell(command: string, cwd: string, displayCwd: string, options: ShellOptions): Promise<string> {
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const posix = process.platform !== 'win32';
    // Its own process group on POSIX, so a kill reaches everything the shell started (npm → node → …).
    const child = spawn(command, { cwd, shell: true, env: commandEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: posix, windowsHide: true });
    const stdout = new CappedOutput(options.maxOutputBytes);
    const stderr = new CappedOutput(options.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));

    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const kill = () => {
      if (killTimer || child.exitCode !== null) return;
      signalTree(child.pid, 'SIGTERM', posix, () => child.kill('SIGTERM'));
      killTimer = setTimeout(() => signalTree(child.pid, 'SIGKILL', posix, () => child.kill('SIGKILL')), KILL_GRACE_MS);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => kill();
    signal?.addEventListener('abort', onAbort, { once: true });

    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // The shell is gone; anything it left running in the group goes with it.
      if (posix && child.pid) signalTree(child.pid, 'SIGKILL', posix, () => {});
      if (killTimer) clearTimeout(killTimer);
    };
    child.on('error', (error) => {
      settle();
      reject(error);
    });
    child.on('close', (code, exitSignal) => {
      settle();
      if (signal?.aborted) return reject(abortReason(signal));
      const status = timedOut
        ? `timed out after ${Math.round(options.timeoutMs / 1000)} s and was killed`
        : code !== null
          ? `exit code ${code}`
          : `killed by ${exitSignal ?? 'a signal'}`;
      resolve(
        [
          `$ ${command}${displayCwd === '.' ? '' : `   (in ${displayCwd})`}`,
          status,
          `--- stdout ---\n${stdout.text() || '(empty)'}`,
          `--- stderr ---\n${stderr.text() || '(empty)'}`,
        ].join('\n'),
      );
    });
  });
}

function signalTree(pid: number | undefined, name: NodeJS.Signals, posix: boolean, fallback: () => void): void {
  if (!pid) return;
  try {
    if (posix) process.kill(-pid, name);
    else fallback();
  } catch {
    // Already gone.
  }
}

function commandEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!WITHHELD_ENV.test(key)) env[key] = value;
  return env;
}

/** Keeps the first and the last half of a stream's output: the command line's echo and the final error both matter. */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail = Buffer.alloc(0);
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = (this.maxBytes >> 1) - this.headBytes;
    if (headRoom > 0) {
      this.head.push(chunk.subarray(0, headRoom));
      this.headBytes += Math.min(headRoom, chunk.length);
      chunk = chunk.subarray(headRoom);
      if (chunk.length === 0) return;
    }
    const keep = this.maxBytes - (this.maxBytes >> 1);
    this.tail = this.tail.length + chunk.length <= keep ? Buffer.concat([this.tail, chunk]) : Buffer.concat([this.tail, chunk]).subarray(-keep);
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const dropped = this.total - this.headBytes - this.tail.length;
    if (dropped <= 0) return (head + this.tail.toString('utf8')).trimEnd();
    return `${head}\n… [${formatBytes(dropped)} of output omitted by CodeWiki; ${formatBytes(this.total)} in all] …\n${this.tail.toString('utf8')}`.trimEnd();
  }
}
