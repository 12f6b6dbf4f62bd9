import { strict as assert } from 'node:assert';
import { walkWorkspace } from '../../src/core/workspace/walkWorkspace';
import { Workspace } from '../../src/core/workspace/workspace';
import { type TempFolder, makeTempFolder, rejectionOf } from './helpers/tempWorkspace';

describe('abort during a pass', () => {
  let root: TempFolder;
  before(() => {
    root = makeTempFolder();
    const files: Record<string, string> = {};
    for (let d = 0; d < 40; d++) for (let f = 0; f < 50; f++) files[`d${d}/f${f}.ts`] = 'export const x = 1;\n';
    root.write(files);
  });
  after(() => root.cleanup());

  for (const ioSliceMs of [undefined, 0]) {
    it(`stops a walk that is under way (${ioSliceMs === 0 ? 'asynchronous' : 'time-sliced'} I/O)`, async () => {
      const workspace = await Workspace.open(root.path, { ioSliceMs, maxWalkEntries: 1_000_000 });
      const controller = new AbortController();
      // Aborted from a macrotask: the walk only notices if it really yields to the event loop.
      setImmediate(() => controller.abort());
      const error = await rejectionOf(
        (async () => {
          for (let i = 0; i < 50; i++) await walkWorkspace(workspace, await workspace.resolve('.'), { signal: controller.signal });
        })(),
      );
      assert.equal(error.name, 'AbortError');
    });
  }
});
