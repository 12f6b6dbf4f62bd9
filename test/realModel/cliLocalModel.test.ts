import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../../src/core/util/processLiveness';
import { runCli } from '../support/runCli';
import { pinnedModels, REPO_ROOT, waitFor } from './localModelServer';
import { cacheSharingModels } from './sharedModelCache';

const EXAMPLE = join(REPO_ROOT, 'example-workspace');

/**
 * Issue 22: `codewiki ask` with no endpoint configured starts the local model itself (the shipped serve.sh, the
 * real llama-server, the pinned fast test model), answers on it, and the next command reuses it.
 */
describe('real model: codewiki ask with no endpoint starts the local model', function () {
  this.timeout(300_000);
  let cache: ReturnType<typeof cacheSharingModels>;
  const model = pinnedModels().fastTestModel;
  before(() => {
    cache = cacheSharingModels();
  });
  after(async () => {
    await runCli(['local-model', 'stop'], { env: env() });
    cache?.cleanup();
  });
  // No CODEWIKI_BASE_URL or CODEWIKI_MODEL (runCli clears them); the local model on, with the fast test model.
  const env = () => ({ CODEWIKI_CACHE_DIR: cache.dir, CODEWIKI_LOCAL_MODEL: model });

  it('answers on llama-server it started, says so on stderr, and the next ask reuses the same server', async () => {
    const question = ['ask', 'Answer in one short sentence: what is this project?', '--workspace', EXAMPLE, '--no-index', '--max-iterations', '2'];
    const first = await runCli(question, { env: env() });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(first.stdout.trim().length > 0, `an answer on stdout; stderr:\n${first.stderr}`);
    const started = new RegExp(
      `^using the local model ${model.replace(/\./g, '\\.')} \\(llama\\.cpp at (http://127\\.0\\.0\\.1:\\d+/v1); started\\)$`,
      'm',
    ).exec(first.stderr);
    assert.ok(started, first.stderr);
    const url = started[1]!;

    const record = JSON.parse(readFileSync(join(cache.dir, 'local-server', 'server.json'), 'utf8')) as { url: string; pid: number };
    assert.equal(record.url, url);
    assert.ok(isProcessAlive(record.pid), 'the server outlives the command (its idle time)');
    const logs = readdirSync(join(cache.dir, 'logs')).filter((f) => f.startsWith('llama-server-'));
    assert.equal(logs.length, 1, 'one llama-server, logging into the test cache');
    assert.match(readFileSync(join(cache.dir, 'logs', logs[0]!), 'utf8'), /prompt eval time/, 'the answer came from this llama-server');

    const second = await runCli(question, { env: env() });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`^using the local model \\S+ \\(llama\\.cpp at ${url.replace(/[.:/]/g, '\\$&')}; reused\\)$`, 'm'));
    assert.ok(second.stdout.trim().length > 0);

    const stop = await runCli(['local-model', 'stop'], { env: env() });
    assert.equal(stop.code, 0, stop.stderr);
    await waitFor(async () => !isProcessAlive(record.pid), 'llama-server to stop', 15_000);
    assert.equal(existsSync(join(cache.dir, 'local-server', 'server.json')), false);
  });
});
