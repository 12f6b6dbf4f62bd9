import { strict as assert } from 'node:assert';
import type { ExecutorEvent } from '../../src/core/engine/executorEvents';
import { runYaml, testRegistry, ToolProbe } from '../support/engineBuilders';

const starts = (events: ExecutorEvent[]) => events.filter((e) => e.type === 'tool-start').map((e) => (e as { stepId: string }).stepId);

describe('CustomAgentExecutor: scheduling', () => {
  const independent = (n: number) =>
    `title: parallel\ntool_chain:\n${Array.from({ length: n }, (_, i) => `  - id: s${i}\n    tool: wait\n    input: { ms: 60, value: v${i} }\n    output_variable: o${i}\n`).join('')}`;

  it('runs independent steps in parallel up to the global limit', async () => {
    const probe = new ToolProbe();
    const result = await runYaml(independent(6), {}, { registry: testRegistry(probe), executor: { maxConcurrency: 4 } });
    assert.equal(result.status, 'success');
    assert.equal(probe.peak, 4);
    const probe2 = new ToolProbe();
    await runYaml(independent(6), {}, { registry: testRegistry(probe2), executor: { maxConcurrency: 2 } });
    assert.equal(probe2.peak, 2);
  });

  it('starts a step only when the outputs it reads exist, and passes them by name', async () => {
    const probe = new ToolProbe();
    const yaml = `title: deps
tool_chain:
  - id: late
    tool: echo
    input: "{slow} then {fast}"
    output_variable: combined
  - id: slow_step
    tool: wait
    input: { ms: 80, value: S }
    output_variable: slow
  - id: fast_step
    tool: wait
    input: { ms: 5, value: F }
    output_variable: fast
output: "{combined}"
`;
    const result = await runYaml(yaml, {}, { registry: testRegistry(probe) });
    assert.equal(result.status, 'success');
    assert.deepEqual(starts(result.events), ['slow_step', 'fast_step', 'late']);
    assert.deepEqual(probe.calls.at(-1), { tool: 'echo', args: { value: 'S then F' } });
    assert.deepEqual(
      result.log.steps.map((s) => s.id),
      ['late', 'slow_step', 'fast_step'],
      'the log keeps the declared order',
    );
    assert.deepEqual(result.output, 'S then F');
  });

  it('binds a lone input value to the single parameter and keeps lists as lists', async () => {
    const probe = new ToolProbe();
    const yaml = 'title: t\ninput_variables:\n  - name: items\ntool_chain:\n  - tool: echo\n    input: ["{items}", "x"]\n    output_variable: out\n';
    const result = await runYaml(yaml, { items: 'a' }, { registry: testRegistry(probe) });
    assert.deepEqual(result.output, ['a', 'x']);
  });
});

describe('CustomAgentExecutor: step policies', () => {
  it('skips a step whose condition is false, and the steps that read its output with it', async () => {
    const yaml = `title: cond
input_variables:
  - name: files
    required: false
tool_chain:
  - id: gated
    tool: echo
    input: "{files}"
    condition: files.length > 0
    output_variable: gated_out
  - id: after
    tool: echo
    input: "got [{gated_out}]"
    output_variable: final
`;
    const skipped = await runYaml(yaml, { files: '' });
    assert.equal(skipped.log.steps[0].status, 'skipped');
    assert.match(skipped.log.steps[0].skipped_reason!, /condition "files.length > 0" is false/);
    assert.equal(skipped.log.steps[1].status, 'skipped');
    assert.match(skipped.log.steps[1].skipped_reason!, /reads \{gated_out\}, the output of the skipped step "gated"/);
    assert.equal(skipped.status, 'success');
    assert.equal(skipped.output, null);
    const ran = await runYaml(yaml, { files: 'abc' });
    assert.equal(ran.log.steps[0].status, 'success');
    assert.equal(ran.output, 'got [abc]');
  });

  it('applies select (JSONPath) to a tool output', async () => {
    const yaml = `title: sel
tool_chain:
  - tool: echo
    input:
      value:
        files: [{ path: a.ts, lines: 3 }, { path: b.ts, lines: 300 }, { path: c.ts, lines: 101 }]
    select: "$.files[?(@.lines > 100)].path"
    output_variable: big
  - tool: echo
    input: "{big}"
    select: "$[1]"
    output_variable: second
output: "{big.length} big, second is {second}"
`;
    const result = await runYaml(yaml);
    assert.equal(result.status, 'success', result.log.error);
    assert.equal(result.output, '2 big, second is c.ts');
    assert.equal(result.log.steps[0].output_preview, '- b.ts\n- c.ts');
  });

  it('retries a failing step with backoff until it succeeds', async () => {
    const probe = new ToolProbe();
    probe.failuresLeft.set('k', 2);
    const yaml = 'title: retry\ntool_chain:\n  - id: f\n    tool: flaky\n    input: k\n    retry: { attempts: 3, backoff: 10ms }\n    output_variable: out\n';
    const result = await runYaml(yaml, {}, { registry: testRegistry(probe) });
    assert.equal(result.status, 'success');
    assert.equal(result.output, 'ok k');
    assert.equal(result.log.steps[0].attempts, 3);
    const retries = result.events.filter((e) => e.type === 'tool-retry');
    // The shared back-off: doubling from `backoff`, each wait between half and all of its step (equal jitter).
    const delays = retries.map((e) => (e as { delayMs: number }).delayMs);
    assert.equal(delays.length, 2);
    assert.ok(delays[0] >= 5 && delays[0] <= 10, `first wait ${delays[0]} ms`);
    assert.ok(delays[1] >= 10 && delays[1] <= 20, `second wait ${delays[1]} ms`);
  });

  it('aborts the run when a step fails after its attempts; the rest are cancelled and the log says why', async () => {
    const probe = new ToolProbe();
    probe.failuresLeft.set('k', 5);
    const yaml =
      'title: fail\ntool_chain:\n  - id: f\n    tool: flaky\n    input: k\n    retry: 2\n    output_variable: out\n  - id: next\n    tool: echo\n    input: "{out}"\n';
    const result = await runYaml(yaml, {}, { registry: testRegistry(probe) });
    assert.equal(result.status, 'failed');
    assert.equal(result.log.status, 'failed');
    assert.match(result.log.error!, /step "f" failed: flaky k failed/);
    assert.deepEqual(
      result.log.steps.map((s) => [s.id, s.status, s.attempts]),
      [
        ['f', 'failed', 2],
        ['next', 'cancelled', 0],
      ],
    );
    assert.equal(probe.calls.filter((c) => c.tool === 'echo').length, 0);
  });

  it('continues past a failure with on_error: continue', async () => {
    const yaml =
      'title: c\ntool_chain:\n  - id: b\n    tool: boom\n    input: x\n    on_error: continue\n    output_variable: out\n  - id: next\n    tool: echo\n    input: "after:{out}"\n    output_variable: res\n';
    const result = await runYaml(yaml);
    assert.equal(result.status, 'success');
    assert.equal(result.log.steps[0].status, 'failed');
    assert.equal(result.log.steps[0].error, 'boom: x');
    assert.equal(result.output, 'after:');
  });

  it('runs fallback steps instead, with the error available as {error}', async () => {
    const yaml =
      'title: fb\ntool_chain:\n  - id: b\n    tool: boom\n    input: primary\n    on_error: fallback\n    fallback:\n      - tool: echo\n        input: "recovered from {error}"\n    output_variable: out\n';
    const result = await runYaml(yaml);
    assert.equal(result.status, 'success');
    assert.equal(result.output, 'recovered from boom: primary');
    assert.equal(result.log.steps[0].recovered_by, 'fallback');
    assert.ok(result.events.some((e) => e.type === 'warning' && /used its fallback/.test(e.message)));
  });

  it('fails a step that exceeds its timeout', async () => {
    const yaml = 'title: t\ntool_chain:\n  - id: slow\n    tool: wait\n    input: { ms: 5000 }\n    timeout: 50ms\n';
    const result = await runYaml(yaml);
    assert.equal(result.status, 'failed');
    assert.match(result.log.steps[0].error!, /timed out after 50 ms/);
  });

  it('for_each runs once per item under its concurrency limit and keeps item order', async () => {
    const probe = new ToolProbe();
    const yaml = `title: map
input_variables:
  - name: n
tool_chain:
  - tool: echo
    input: [30, 5, 20, 1, 10]
    output_variable: delays
  - id: map
    tool: wait
    for_each: "{delays}"
    as: d
    concurrency: 2
    input: { ms: "{d}", value: "item {index}: {d}" }
    output_variable: results
`;
    const result = await runYaml(yaml, { n: '1' }, { registry: testRegistry(probe) });
    assert.equal(result.status, 'success', result.log.error);
    assert.deepEqual(result.output, ['item 0: 30', 'item 1: 5', 'item 2: 20', 'item 3: 1', 'item 4: 10']);
    assert.equal(probe.peak, 2);
    assert.equal(result.log.steps[1].items, 5);
  });

  it('cancels a running chain: in-flight and pending steps are cancelled, the log is complete', async () => {
    const controller = new AbortController();
    const yaml =
      'title: c\ntool_chain:\n  - id: long\n    tool: wait\n    input: { ms: 10000 }\n    output_variable: a\n  - id: after\n    tool: echo\n    input: "{a}"\n';
    setTimeout(() => controller.abort(), 50);
    const result = await runYaml(yaml, {}, { signal: controller.signal });
    assert.equal(result.status, 'cancelled');
    assert.deepEqual(
      result.log.steps.map((s) => s.status),
      ['cancelled', 'cancelled'],
    );
    assert.equal(result.log.status, 'cancelled');
    assert.ok(result.log.completed_at);
    assert.equal(result.events.at(-1)!.type, 'chain-end');
  });

  it('emits chain, tool and end events a UI can render', async () => {
    const result = await runYaml('title: ev\ntool_chain:\n  - id: one\n    title: First step\n    tool: echo\n    input: hi\n    output_variable: a\n');
    const start = result.events[0];
    assert.equal(start.type, 'chain-start');
    assert.deepEqual((start as Extract<ExecutorEvent, { type: 'chain-start' }>).steps, [{ id: 'one', title: 'First step', tool: 'echo', dependsOn: [] }]);
    assert.deepEqual(
      result.events.map((e) => e.type),
      ['chain-start', 'tool-start', 'tool-end', 'chain-end'],
    );
    const end = result.events[2] as Extract<ExecutorEvent, { type: 'tool-end' }>;
    assert.equal(end.outputPreview, 'hi');
    assert.equal(result.log.steps[0].input && (result.log.steps[0].input as { value: string }).value, 'hi');
  });
});
