import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { abortReason } from '../../util/abort';
import type {
  CodeIndex,
  CodeSearchHit,
  CodeSearchOptions,
  CodeStructure,
  IndexStatus,
  QuestionContext,
  QuestionContextOptions,
  RepoMap,
  RepoMapOptions,
  SymbolMatch,
} from '../codeIndexTypes';
import { CANCELLABLE, DISPOSE_WAIT_MS, type IndexMethod, type IndexWorkerData, type WorkerReply, type WorkerRequest } from './workerProtocol';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * The codebase index in a worker thread, behind the same CodeIndex interface as the in-process one.
 * The extension uses it so that parsing thousands of files never blocks the extension host (Copilot
 * keeps its local index in a worker for the same reason). Status arrives as events; every call is a
 * request answered by id; `update` and `rebuild` are cancelled through their signal.
 */
export class WorkerCodeIndex implements CodeIndex {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(status: IndexStatus) => void>();
  private nextId = 1;
  private current: IndexStatus = { state: 'idle', indexedFiles: 0, totalFiles: 0, symbols: 0 };
  private exited: Error | undefined;

  constructor(data: IndexWorkerData) {
    const entry = workerEntry();
    this.worker = entry.source ? new Worker(entry.source, { eval: true, workerData: data }) : new Worker(entry.file, { workerData: data });
    this.worker.on('message', (reply: WorkerReply) => this.receive(reply));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`the code index worker stopped (exit code ${code})`)));
  }

  status(): IndexStatus {
    return this.current;
  }

  onStatus(listener: (status: IndexStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  update(options: { signal?: AbortSignal } = {}): Promise<IndexStatus> {
    return this.call('update', [{}], options.signal) as Promise<IndexStatus>;
  }

  rebuild(options: { signal?: AbortSignal } = {}): Promise<IndexStatus> {
    return this.call('rebuild', [{}], options.signal) as Promise<IndexStatus>;
  }

  refreshFiles(absolutePaths: string[]): Promise<void> {
    return this.call('refreshFiles', [absolutePaths]) as Promise<void>;
  }

  findSymbol(name: string, options?: { limit?: number }): Promise<SymbolMatch[]> {
    return this.call('findSymbol', [name, options]) as Promise<SymbolMatch[]>;
  }

  searchCode(query: string, options?: CodeSearchOptions): Promise<CodeSearchHit[]> {
    return this.call('searchCode', [query, options]) as Promise<CodeSearchHit[]>;
  }

  repoMap(options: RepoMapOptions): Promise<RepoMap> {
    return this.call('repoMap', [options]) as Promise<RepoMap>;
  }

  questionContext(question: string, options?: QuestionContextOptions): Promise<QuestionContext> {
    return this.call('questionContext', [question, options]) as Promise<QuestionContext>;
  }

  structure(): Promise<CodeStructure> {
    return this.call('structure', []) as Promise<CodeStructure>;
  }

  /** Resolves when the worker is ready for questions: it readies itself after each build (for the bench). */
  readyForQuestions(): Promise<void> {
    return this.call('prepareForQuestions', []) as Promise<void>;
  }

  /** The worker's V8 heap in use, in bytes (for the bench). */
  heapUsed(): Promise<number> {
    return this.call('memory', []) as Promise<number>;
  }

  /** Lets the worker save what changed since its last save, then stops it. */
  async dispose(): Promise<void> {
    this.listeners.clear();
    if (!this.exited) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.call('dispose', []).catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, DISPOSE_WAIT_MS)))]);
      clearTimeout(timer);
    }
    await this.worker.terminate();
  }

  private call(method: IndexMethod, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    if (this.exited) return Promise.reject(this.exited);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const onAbort = () => this.post({ type: 'cancel', id });
      if (signal && CANCELLABLE.has(method)) signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (value) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(signal?.aborted ? abortReason(signal) : error);
        },
      });
      this.post({ type: 'call', id, method, args });
    });
  }

  private post(request: WorkerRequest): void {
    this.worker.postMessage(request);
  }

  private receive(reply: WorkerReply): void {
    if (reply.type === 'status') {
      this.current = reply.status;
      for (const listener of this.listeners) listener(reply.status);
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (reply.type === 'result') pending.resolve(reply.value);
    else pending.reject(new Error(reply.message));
  }

  private fail(error: Error): void {
    if (!this.exited) {
      this.current = { ...this.current, state: 'failed', error: error.message };
      for (const listener of this.listeners) listener(this.current);
    }
    this.exited ??= error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}

/**
 * The worker's script: `indexWorker.js` beside the bundle (dist/), or, when CodeWiki runs from source
 * (tests), this folder's TypeScript entry loaded through tsx's require hook (loader hooks given to the
 * main thread with --import do not reach a worker's own module loading).
 */
function workerEntry(): { file: string; source?: string } {
  const bundled = join(__dirname, 'indexWorker.js');
  if (existsSync(bundled)) return { file: bundled };
  const file = join(__dirname, 'indexWorkerMain.ts');
  return { file, source: `require('tsx/cjs'); require(${JSON.stringify(file)});` };
}
