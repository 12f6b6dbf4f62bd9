import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunLog } from '../../src/core/engine/runLog';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer, type RecordedRequest } from '../support/openaiServer';
import { startCli } from '../support/runCli';

/**
 * Issue 10 §1, "for_each stops when its run stops", through the built CLI against the scripted server: with
 * concurrency 2 and on_error continue, a failing item stopped the step but the pool went on starting model calls
 * after the run had reported itself complete, and those calls were in no log.
 */
describe('for_each on the CLI: the pool stops when an item fails (scripted server)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'];
  const keyOf = (request: RecordedRequest) => /ITEM-(k\d)/.exec(request.promptText)?.[1];

  beforeEach(async () => {
    // k2 fails at once (400: not retried); every other item answers after 150 ms, so the pool is busy when it fails.
    server = new OpenAiTestServer((request) => (keyOf(request) === 'k2' ? { status: 400 } : { text: `summary of ${keyOf(request)}`, delayMs: 150 }));
    await server.start();
    ws = tempWorkspace({});
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('no model call starts after the run completes or outlives the CLI, and the run log lists every item', async () => {
    const prompt = join(ws.root, 'pool.yaml');
    writeFileSync(
      prompt,
      `title: Pool
input_variables:
  - name: keys
    type: multiline
tool_chain:
  - id: each
    tool: summarize_llm_tool
    for_each: "{keys}"
    as: key
    concurrency: 2
    on_error: continue
    input: {content: "ITEM-{key}"}
    output_variable: summaries
  - id: after
    tool: list_files
    input: {path: "."}
    output_variable: files
output: "{summaries}"
`,
    );
    const logFile = join(ws.root, 'run.json');
    const cli = startCli(['run', prompt, '--workspace', ws.root, '--log', logFile, '--input', `keys=${keys.join('\n')}`], {
      env: { CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model' },
    });
    // One clock for every moment compared below: this process's performance.now(), which also stamps the server's
    // requests. The run is complete when the CLI says so: its "■ done" line follows the log's completed_at at once.
    let completedAt: number | undefined;
    cli.child.stderr!.on('data', () => {
      if (completedAt === undefined && /^■ done/m.test(cli.output().stderr)) completedAt = performance.now();
    });
    const result = await cli.done;
    const exitedAt = performance.now();
    assert.equal(result.code, 0, result.stderr);
    assert.ok(completedAt !== undefined, `the CLI reported the run complete:\n${result.stderr}`);
    // The CLI has exited, so once its connections have closed, every request it sent has been recorded.
    await server.waitForAllClosed();

    const log = JSON.parse(readFileSync(logFile, 'utf8')) as RunLog;
    const calls = server.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.ok(calls.length > 0 && calls.some((r) => keyOf(r) === 'k2'), 'the failing item was called');
    for (const call of calls) {
      assert.ok(call.arrivedAt < exitedAt, `the call for ${keyOf(call)} arrived after the CLI exited`);
      assert.ok(call.arrivedAt < completedAt, `the call for ${keyOf(call)} arrived after the run completed`);
      assert.ok(
        call.finishedAt !== undefined && (call.closedAt === undefined || call.closedAt >= call.finishedAt),
        `the call for ${keyOf(call)} was cut off: it outlived the run`,
      );
    }

    const [each, after] = log.steps;
    assert.equal(log.status, 'success');
    assert.deepEqual([each.status, after.status], ['failed', 'success'], 'on_error continue: the next step still runs');
    assert.equal(each.items, keys.length);
    assert.deepEqual(
      each.item_results?.map((r) => r.item),
      keys.map((_, i) => i),
      'every item is listed, in order',
    );
    const started = each.item_results!.filter((r) => r.status !== 'not_started');
    assert.deepEqual(
      calls.map(keyOf).sort(),
      started.map((r) => keys[r.item]).sort(),
      'each model call is a started item in the log, and each started item made one call',
    );
    assert.equal(each.item_results![2].status, 'failed');
    assert.match(each.item_results![2].error ?? '', /400/);
    assert.ok(started.length <= 4, `the pool stopped at the failure (${started.length} items started)`);
    assert.ok(
      each.item_results!.slice(4).every((r) => r.status === 'not_started'),
      JSON.stringify(each.item_results),
    );
  });
});
