import { strict as assert } from 'node:assert';
import type { CodeIndex } from '../../src/core/codebaseIndex/codeIndexTypes';
import { disabledCodeIndex } from '../../src/core/codebaseIndex/disabledCodeIndex';
import { liveCodeIndex } from '../../src/core/codebaseIndex/liveCodeIndex';
import { IndexFixture } from './indexHarness';

/**
 * The extension restarts its index on trust, folder and secret-policy changes while engines built before still
 * hold the index they were given (the multi-root test in real VS Code lost its definition card to one such engine).
 */
describe('an index handed to an engine follows its owner across restarts', () => {
  let first: IndexFixture;
  let second: IndexFixture;

  beforeEach(() => {
    first = new IndexFixture({ 'src/old.ts': 'export function beforeRestart() {}\n' });
    second = new IndexFixture({ 'src/new.ts': 'export function afterRestart() {}\n' });
  });

  afterEach(async () => {
    await first.close();
    await second.close();
  });

  it('searches the index running now, not the one running when it was handed out, and says why when there is none', async () => {
    let running: CodeIndex | undefined = await first.open();
    await running.update();
    const listeners = new Set<() => void>();
    const held = liveCodeIndex(
      () => running,
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      'no index for this folder',
    );
    assert.deepEqual(
      (await held.findSymbol('beforeRestart')).map((m) => m.path),
      ['src/old.ts'],
    );

    // The owner restarts: the old index is stopped, a new one built.
    const seen: string[] = [];
    held.onStatus((status) => seen.push(status.state));
    await running.dispose();
    running = await second.open();
    await running.update();
    for (const listener of listeners) listener();
    assert.deepEqual(
      (await held.findSymbol('afterRestart')).map((m) => m.path),
      ['src/new.ts'],
    );
    assert.equal((await held.questionContext('Where is afterRestart defined?')).definitions[0]?.path, 'src/new.ts');
    assert.deepEqual(seen, ['ready']);

    running = undefined;
    assert.equal(held.status().state, 'disabled');
    assert.equal(held.status().error, 'no index for this folder');
    assert.deepEqual(await held.findSymbol('afterRestart'), []);
  });

  it('disposing what the engine holds does not stop the owner’s index', async () => {
    let disposed = 0;
    const owned: CodeIndex = { ...disabledCodeIndex('a stand-in for the window’s index'), dispose: async () => void disposed++ };
    const held = liveCodeIndex(
      () => owned,
      () => () => undefined,
    );
    await held.dispose();
    assert.equal(disposed, 0, 'the window owns the index: an engine that is rebuilt must not stop it');
  });
});
