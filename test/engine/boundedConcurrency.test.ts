import { strict as assert } from 'node:assert';
import { forEachBounded } from '../../src/core/util/boundedConcurrency';
import { sleep } from '../../src/core/util/abort';
import { runYaml, testRegistry, ToolProbe } from '../support/engineBuilders';

/** Nothing a run started may still be running, or start, once the run has returned. */
describe('bounded concurrency stops with its run', () => {
  it('for_each with concurrency 2 and on_error continue: a failing item stops the pool and no tool call starts after the run returned', async () => {
    const probe = new ToolProbe();
    probe.failuresLeft.set('k2', 1);
    const yaml = `title: pool
input_variables:
  - name: keys
tool_chain:
  - id: each
    tool: flaky
    for_each: "{keys}"
    as: key
    concurrency: 2
    on_error: continue
    input: {key: "{key}"}
    output_variable: results
  - id: after
    tool: echo
    input: "after"
    output_variable: done
`;
    const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
    const result = await runYaml(yaml, { keys }, { registry: testRegistry(probe) });
    const startedByReturn = probe.calls.length;
    assert.equal(probe.running, 0, 'every started call has settled when the run returns');
    assert.equal(result.status, 'success');
    assert.equal(result.log.steps[0].status, 'failed');
    assert.equal(result.log.steps[1].status, 'success');
    await sleep(300);
    assert.equal(probe.calls.length, startedByReturn, 'no tool call starts after the run returned');
    const flakyCalls = probe.calls.filter((c) => c.tool === 'flaky').length;
    assert.ok(flakyCalls <= 4, `the pool stopped at the failure (${flakyCalls} items started)`);
  });

  it('a cancelled run starts none of the tool calls still queued for a slot', async () => {
    const probe = new ToolProbe();
    const controller = new AbortController();
    const yaml = `title: queued
max_concurrency: 1
input_variables:
  - name: items
tool_chain:
  - id: each
    tool: wait
    for_each: "{items}"
    concurrency: 4
    input: {ms: 200}
`;
    setTimeout(() => controller.abort(), 50);
    const result = await runYaml(yaml, { items: ['a', 'b', 'c', 'd'] }, { registry: testRegistry(probe), signal: controller.signal });
    assert.equal(result.status, 'cancelled');
    const startedByReturn = probe.calls.length;
    await sleep(300);
    assert.equal(startedByReturn, 1, `only the item holding the one slot had started (${startedByReturn})`);
    assert.equal(probe.calls.length, 1, 'the queued items never start');
  });

  it('forEachBounded settles only when every started item has, then rethrows the first failure', async () => {
    let running = 0;
    const started: number[] = [];
    const work = forEachBounded([0, 1, 2, 3, 4, 5], 3, async (item) => {
      started.push(item);
      running++;
      try {
        if (item === 0) throw new Error('item 0 failed');
        await sleep(100);
      } finally {
        running--;
      }
    });
    await assert.rejects(work, /item 0 failed/);
    assert.equal(running, 0, 'the items in flight finished before the call settled');
    assert.deepEqual(started, [0, 1, 2], 'no item started after the failure');
  });

  it('forEachBounded starts nothing once its signal aborts', async () => {
    const controller = new AbortController();
    const started: number[] = [];
    const work = forEachBounded(
      [0, 1, 2, 3],
      1,
      async (item) => {
        started.push(item);
        if (item === 1) controller.abort();
        await sleep(10);
      },
      { signal: controller.signal },
    );
    await assert.rejects(work, (e: Error) => e.name === 'AbortError');
    assert.deepEqual(started, [0, 1]);
  });
});
