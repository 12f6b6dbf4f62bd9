import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { acquireLocalModel, runningLocalModel, type LocalModelRequest } from '../../src/core/localModel/acquireLocalModel';
import { readLeases } from '../../src/core/localModel/leases';
import { LocalModelError } from '../../src/core/localModel/localModelError';
import { localServerFiles } from '../../src/core/localModel/localModelFiles';
import type { LocalModelProgress } from '../../src/core/localModel/serveProgress';
import { stopLocalModel } from '../../src/core/localModel/stopLocalModel';
import { isProcessAlive } from '../../src/core/util/processLiveness';
import { answersHealth, FAKE_SERVE, fakeServeWorld, serverStopped, waitUntil, type FakeServeWorld } from './localModelFixture';

/**
 * The shared local model's bookkeeping with real processes and files: a serve.sh stand-in (fixtures/fake-serve.sh)
 * that prints serve.sh's progress and ready line, serves /health and /v1/models, and runs the real lease-watch.sh.
 */
describe('the shared local model: start, reuse, leases, stop', function () {
  this.timeout(30_000);
  let world: FakeServeWorld;
  beforeEach(() => {
    world = fakeServeWorld();
  });
  afterEach(() => world.cleanup());

  const request = (extra: Partial<LocalModelRequest> = {}): LocalModelRequest => ({
    serveScript: FAKE_SERVE,
    cacheDir: world.cacheDir,
    env: world.env(),
    ...extra,
  });

  it('starts the default model with progress, records it on disk, and a second caller reuses it', async () => {
    const progress: LocalModelProgress[] = [];
    const first = await acquireLocalModel(request({ onProgress: (p) => progress.push(p) }));
    assert.equal(first.started, true);
    assert.equal(first.model, 'fake-default', "the manifest's default model");
    assert.match(first.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.ok(await answersHealth(first.url));
    assert.deepEqual(
      progress.filter((p) => p.message === 'building llama-server').map((p) => p.fraction),
      [0.25, 0.5, 0.75, 1],
    );
    assert.ok(
      progress.some((p) => p.message === 'downloading fake-default (98 MB, once)'),
      progress.map((p) => p.message).join(' | '),
    );

    const record = JSON.parse(readFileSync(localServerFiles(world.cacheDir).registry, 'utf8')) as {
      url: string;
      model: string;
      pid: number;
      leasesDir: string;
    };
    assert.deepEqual({ url: record.url, model: record.model, pid: record.pid }, { url: first.url, model: 'fake-default', pid: first.pid });
    assert.deepEqual(world.starts(), [first.pid]);

    const second = await acquireLocalModel(request({ holderPid: world.holder().pid }));
    assert.equal(second.started, false);
    assert.equal(second.url, first.url);
    assert.deepEqual(world.starts(), [first.pid], 'no second server');
    assert.equal(readLeases(record.leasesDir).filter((l) => l.live).length, 2, 'both callers hold a lease');
  });

  it('keeps serving while any lease holds it and stops when the last holder goes away', async () => {
    const window1 = world.holder();
    const window2 = world.holder();
    const first = await acquireLocalModel(request({ holderPid: window1.pid }));
    await acquireLocalModel(request({ holderPid: window2.pid }));
    window1.kill('SIGKILL'); // a window that crashed: its lease dies with its pid
    await waitUntil(() => window1.exitCode !== null || window1.signalCode !== null, 'the first holder to exit');
    await delay(600); // several lease checks (every 0.1 s here)
    assert.ok(isProcessAlive(first.pid), 'the second window still holds the server');
    assert.ok(await answersHealth(first.url));

    window2.kill('SIGKILL');
    await waitUntil(serverStopped(first.pid), 'the server to stop after its last holder');
    assert.equal(await runningLocalModel(world.cacheDir), undefined);
  });

  it('a released lease lets go at once; a lingering one holds the server after its process until its time', async () => {
    const cli = world.holder();
    const local = await acquireLocalModel(request({ holderPid: cli.pid }));
    local.lease.linger(Date.now() + 60_000);
    cli.kill('SIGKILL');
    await delay(600);
    assert.ok(isProcessAlive(local.pid), 'the idle time is not over');
    assert.deepEqual(
      readLeases(readdirLeases()).map((l) => l.live),
      [true],
    );

    local.lease.linger(Date.now() - 1000); // the idle time ran out
    await waitUntil(serverStopped(local.pid), 'the server to stop once the idle time is over');
  });

  it('starting another model starts a second server and records the newest; the first keeps its holders', async () => {
    const first = await acquireLocalModel(request());
    const other = await acquireLocalModel(request({ model: 'fake-other' }));
    assert.equal(other.started, true);
    assert.equal(other.model, 'fake-other');
    assert.notEqual(other.url, first.url);
    assert.equal((await runningLocalModel(world.cacheDir))?.model, 'fake-other');
    assert.ok(await answersHealth(first.url));
  });

  it('two callers at once start one server: the second waits for the first and reuses it', async () => {
    const [a, b] = await Promise.all([
      acquireLocalModel(request({ holderPid: world.holder().pid })),
      acquireLocalModel(request({ holderPid: world.holder().pid })),
    ]);
    assert.equal(a.url, b.url);
    assert.deepEqual([a.started, b.started].sort(), [false, true]);
    assert.equal(world.starts().length, 1);
    assert.equal(existsSync(localServerFiles(world.cacheDir).startLock), false, 'the start lock is released');
  });

  it('replaces a record whose server is gone (a crash, a reboot)', async () => {
    const files = localServerFiles(world.cacheDir);
    mkdirSync(files.dir, { recursive: true });
    const dead = world.holder();
    dead.kill('SIGKILL');
    await waitUntil(() => dead.exitCode !== null || dead.signalCode !== null, 'the stand-in to exit');
    writeFileSync(
      files.registry,
      JSON.stringify({ url: 'http://127.0.0.1:9/v1', model: 'fake-default', pid: dead.pid, leasesDir: files.leasesDir('old'), startedAt: '' }),
    );
    const local = await acquireLocalModel(request());
    assert.equal(local.started, true);
    assert.equal((await runningLocalModel(world.cacheDir))?.pid, local.pid);
  });

  it('cancelling stops the start, its whole process group, and leaves no record or lock', async () => {
    const controller = new AbortController();
    const started = acquireLocalModel(
      request({ env: world.env({ FAKE_SERVE_HANG: '1' }), signal: controller.signal, onProgress: (p) => p.line.startsWith('phase 5/5') && controller.abort() }),
    );
    await assert.rejects(started, { name: 'AbortError' });
    const [pid] = world.starts();
    assert.ok(pid, 'the serve script ran');
    await waitUntil(serverStopped(pid!), 'the serve script to be stopped');
    const files = localServerFiles(world.cacheDir);
    assert.equal(existsSync(files.registry), false);
    assert.equal(existsSync(files.startLock), false);
    assert.deepEqual(
      readdirSync(files.dir).filter((n) => n.startsWith('leases-')),
      [],
      'its lease folder is removed',
    );
  });

  it('a failed start says what serve.sh said, and records nothing', async () => {
    await assert.rejects(acquireLocalModel(request({ env: world.env({ FAKE_SERVE_FAIL: '1' }) })), (error: Error) => {
      assert.ok(error instanceof LocalModelError);
      assert.match(error.message, /did not start \(serve\.sh exited with 1\)/);
      assert.match(error.message, /build failed \(log: \/nowhere\/build\.log\)/);
      return true;
    });
    assert.equal(existsSync(localServerFiles(world.cacheDir).registry), false);
  });

  it('refuses a model that is not pinned, naming the pinned ones', async () => {
    await assert.rejects(acquireLocalModel(request({ model: 'gpt-5' })), /"gpt-5" is not a pinned local model; choose one of: fake-default, fake-other/);
    assert.deepEqual(world.starts(), []);
  });

  it('stop ends the server whoever holds it', async () => {
    const local = await acquireLocalModel(request({ holderPid: world.holder().pid }));
    const stopped = await stopLocalModel(world.cacheDir);
    assert.equal(stopped?.pid, local.pid);
    assert.equal(isProcessAlive(local.pid), false);
    assert.equal(existsSync(localServerFiles(world.cacheDir).registry), false);
    assert.equal(await stopLocalModel(world.cacheDir), undefined, 'nothing left to stop');
  });

  function readdirLeases(): string {
    const dir = localServerFiles(world.cacheDir).dir;
    return join(
      dir,
      readdirSync(dir).find((n) => n.startsWith('leases-'))!,
    );
  }
});
