import { spawn } from 'node:child_process';
import { abortReason } from '../util/abort';
import { LocalModelError } from './localModelError';
import { ServeProgressParser, type LocalModelProgress } from './serveProgress';

export interface ServeRequest {
  /** scripts/local-model/serve.sh. */
  script: string;
  model: string;
  cacheDir: string;
  /** The folder serve.sh's watcher reads leases from once the server is ready. */
  leasesDir: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (progress: LocalModelProgress) => void;
}

export interface ServedModel {
  url: string;
  model: string;
  pid: number;
}

const READY = /^local model ready: (\S+) model=(\S+)$/m;

/**
 * Runs serve.sh in its own process group (so a cancel stops the build, pip and llama-server alike) and
 * resolves at its one stdout line, `local model ready: URL model=NAME`. From then on the server belongs to
 * nobody in particular: it keeps running after this process exits (CODEWIKI_SERVE_DETACHED) for as long as
 * a lease in `leasesDir` holds it (CODEWIKI_SERVE_LEASES). Run through `bash`, because a VSIX install may
 * not keep the scripts' executable bits.
 */
export function startServeScript(request: ServeRequest): Promise<ServedModel> {
  // PORT would choose llama-server's port; in an editor or start.sh it is someone else's. A free one is picked.
  const { PORT: _port, ...inherited } = request.env;
  const child = spawn('bash', [request.script, '--model', request.model], {
    env: { ...inherited, CODEWIKI_CACHE_DIR: request.cacheDir, CODEWIKI_SERVE_DETACHED: '1', CODEWIKI_SERVE_LEASES: request.leasesDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const parser = new ServeProgressParser();
  const tail: string[] = [];
  let stdout = '';
  let pending = '';
  return new Promise<ServedModel>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      request.signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      killGroup('SIGTERM');
      // A build step that ignores SIGTERM must not outlive the cancel.
      setTimeout(() => killGroup('SIGKILL'), 5000).unref();
      finish(() => reject(abortReason(request.signal!)));
    };
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener('abort', onAbort, { once: true });

    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        tail.push(line);
        if (tail.length > 20) tail.shift();
        const progress = parser.parse(line);
        if (progress && !settled) request.onProgress?.(progress);
      }
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      stdout += chunk;
      const ready = READY.exec(stdout);
      if (!ready || !child.pid) return;
      const served = { url: ready[1]!, model: ready[2]!, pid: child.pid };
      finish(() => {
        // The server lives on alone: stop reading its pipes and let this process exit without waiting for it.
        child.stdout!.destroy();
        child.stderr!.destroy();
        child.unref();
        resolve(served);
      });
    });
    child.on('error', (error) => finish(() => reject(new LocalModelError(`cannot run bash ${request.script}: ${error.message}`))));
    child.on('exit', (code, signal) => {
      if (pending) tail.push(pending);
      finish(() => reject(new LocalModelError(`the local model did not start (serve.sh exited with ${code ?? signal}):\n${tail.join('\n')}`)));
    });
  });
}
