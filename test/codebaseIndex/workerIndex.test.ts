import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WorkerCodeIndex } from '../../src/core/codebaseIndex/worker/workerCodeIndex';
import type { IndexStatus } from '../../src/core/codebaseIndex/codeIndexTypes';
import { IndexFixture } from './indexHarness';

const FILES: Record<string, string> = {
  'src/lock.ts': '/** Lets several windows share history. */\nexport class ConversationLock {\n  acquire(): void {}\n}\n',
  'src/store.ts': "import { ConversationLock } from './lock';\nexport function saveConversation(lock: ConversationLock): void {}\n",
};

/**
 * The extension's index runs in a worker thread. It must answer exactly as the in-process index does
 * (the CLI's), report progress, stop when asked and keep current as files change.
 */
describe('codebase index in a worker thread', function () {
  this.timeout(60_000);
  let fx: IndexFixture;
  let worker: WorkerCodeIndex | undefined;
  afterEach(async () => {
    await worker?.dispose();
    worker = undefined;
    await fx.close();
  });

  it('answers the same as the in-process index, with status events on the way', async () => {
    fx = new IndexFixture(FILES);
    const statuses: IndexStatus[] = [];
    worker = new WorkerCodeIndex({ roots: [fx.root], workspaceOptions: {}, storeDir: fx.storeDir });
    worker.onStatus((s) => statuses.push(s));
    const built = await worker.update();
    assert.equal(built.state, 'ready');
    assert.equal(worker.status().state, 'ready', 'the last status event said ready');
    assert.ok(statuses.some((s) => s.state === 'building'));

    const local = await fx.open({}, false);
    await local.update();
    const question = 'Which file implements the lock that lets several windows share history?';
    assert.deepEqual(await worker.searchCode(question), await local.searchCode(question));
    assert.deepEqual(await worker.findSymbol('ConversationLok'), await local.findSymbol('ConversationLok'));
    assert.deepEqual(await worker.questionContext(question), await local.questionContext(question));
    assert.deepEqual(await worker.repoMap({ budgetTokens: 200 }), await local.repoMap({ budgetTokens: 200 }));
    assert.ok((await worker.heapUsed()) > 0);
  });

  it('keeps current as files change, and a cancelled update rejects without killing the worker', async () => {
    const many: Record<string, string> = { ...FILES };
    // Enough files that the build outlasts several progress reports (one per 100 ms) and the abort that one sends back:
    // with 800, the worker once finished before the abort reached it.
    for (let i = 0; i < 4000; i++) many[`gen/f${i}.ts`] = `export function generated${i}(): number {\n  return ${i};\n}\n`;
    fx = new IndexFixture(many);
    worker = new WorkerCodeIndex({ roots: [fx.root], workspaceOptions: {} });
    const controller = new AbortController();
    const stopped = worker.update({ signal: controller.signal });
    worker.onStatus((s) => s.state === 'building' && s.indexedFiles > 20 && controller.abort());
    await assert.rejects(stopped, (error: Error) => error.name === 'AbortError' || /abort/i.test(error.message));
    assert.equal((await worker.update()).state, 'ready', 'the worker is still there and finishes');
    writeFileSync(join(fx.root, 'src/lock.ts'), 'export class RenamedLock {}\n');
    await worker.refreshFiles([join(fx.root, 'src/lock.ts')]);
    assert.equal((await worker.findSymbol('RenamedLock'))[0]?.path, 'src/lock.ts');
  });

  it('a change saved by the watcher survives closing the window: dispose saves before the worker stops', async () => {
    fx = new IndexFixture(FILES);
    const first = new WorkerCodeIndex({ roots: [fx.root], workspaceOptions: {}, storeDir: fx.storeDir });
    await first.update();
    writeFileSync(join(fx.root, 'src/late.ts'), 'export function savedBeforeClosing() {}\n');
    await first.refreshFiles([join(fx.root, 'src/late.ts')]);
    await first.dispose(); // the save after a change is delayed by seconds; closing must not lose it
    worker = new WorkerCodeIndex({ roots: [fx.root], workspaceOptions: {}, storeDir: fx.storeDir });
    const reopened = await worker.update();
    assert.equal(reopened.parsedFiles, 0, 'nothing had to be read again');
    assert.equal((await worker.findSymbol('savedBeforeClosing'))[0]?.path, 'src/late.ts');
  });
});
