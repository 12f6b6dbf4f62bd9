import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { Workspace } from '../../workspace/workspace';
import { CodebaseIndex } from '../codebaseIndex';
import { CANCELLABLE, type IndexWorkerData, type WorkerReply, type WorkerRequest } from './workerProtocol';

/**
 * The worker thread's side: one CodebaseIndex, driven by messages. Parsing, hashing and ranking all
 * happen here, so the extension host's thread only ever posts a question and reads a small answer.
 */
async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('indexWorkerMain runs in a worker thread');
  const data = workerData as IndexWorkerData;
  const workspace = await Workspace.open(data.roots, data.workspaceOptions);
  const index = new CodebaseIndex({ workspace, storeDir: data.storeDir, maxFileBytes: data.maxFileBytes });
  const post = (reply: WorkerReply) => port.postMessage(reply);
  index.onStatus((status) => post({ type: 'status', status }));
  const running = new Map<number, AbortController>();
  // This index answers question after question: once built, it readies itself for them while idle.
  let preparing: Promise<void> = Promise.resolve();

  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'cancel') {
      running.get(request.id)?.abort();
      return;
    }
    const { id, method, args } = request;
    const controller = CANCELLABLE.has(method) ? new AbortController() : undefined;
    if (controller) running.set(id, controller);
    const call = async (): Promise<unknown> => {
      // What the index holds once ready for questions, as a user's worker holds it.
      if (method === 'memory') return preparing.then(heapAfterCollection);
      const fn = index[method] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn.apply(index, controller ? [{ ...(args[0] as object), signal: controller.signal }] : args);
      // A preparation that fails only leaves the first questions slower; each one says so itself if the index is broken.
      if (method === 'update' || method === 'rebuild') preparing = index.prepareForQuestions().catch(() => undefined);
      return value;
    };
    call()
      .then(
        (value) => post({ type: 'result', id, value }),
        (error: unknown) => post({ type: 'error', id, message: (error as Error)?.message ?? String(error), cancelled: controller?.signal.aborted ?? false }),
      )
      .finally(() => running.delete(id));
  });
  port.postMessage({ type: 'status', status: index.status() } satisfies WorkerReply);
}

/** The live heap, after a full collection: what the index holds, not garbage a collection has yet to take (for the bench). */
function heapAfterCollection(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return getHeapStatistics().used_heap_size;
}

void main().catch((error: unknown) => {
  parentPort?.postMessage({
    type: 'status',
    status: { state: 'failed', indexedFiles: 0, totalFiles: 0, symbols: 0, error: (error as Error).message },
  } satisfies WorkerReply);
});
