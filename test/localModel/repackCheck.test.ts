import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeTempFolder } from '../tools/helpers/tempWorkspace';

const REPACK_CHECK = resolve(__dirname, '../../scripts/local-model/repack_check.py');

/**
 * A llama-server stand-in for the check: takes llama-server's arguments, logs each start, serves /health and answers
 * the chat question with `answer`.
 */
function fakeLlamaServer(dir: string, answer: string): { bin: string; starts: () => string[] } {
  const log = join(dir, 'starts.log');
  const bin = join(dir, 'llama-server');
  writeFileSync(
    bin,
    [
      `#!${process.execPath}`,
      "const { createServer } = require('node:http');",
      "const { appendFileSync } = require('node:fs');",
      'const args = process.argv.slice(2);',
      'const arg = (name) => args[args.indexOf(name) + 1];',
      `appendFileSync(${JSON.stringify(log)}, arg('-m') + ' ' + (args.includes('--repack') ? 'repack' : '') + '\\n');`,
      'createServer((req, res) => {',
      "  res.writeHead(200, { 'content-type': 'application/json' });",
      "  if (req.url === '/health') return res.end(JSON.stringify({ status: 'ok' }));",
      `  res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: ${JSON.stringify(answer)} } }] }));`,
      "}).listen(Number(arg('--port')), '127.0.0.1');",
      '// Stopped by the check; gone anyway if the check was killed before it could stop it.',
      'setTimeout(() => process.exit(0), 30_000).unref();',
    ].join('\n'),
  );
  chmodSync(bin, 0o755);
  return { bin, starts: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

/** `repack_check.py LLAMA_SERVER GGUF VERDICT_DIR`, as serve.sh runs it: what it prints is the flag serve.sh passes on. */
function check(bin: string, gguf: string, verdicts: string): { flag: string; stderr: string } {
  const run = spawnSync('python3', [REPACK_CHECK, bin, gguf, verdicts, '--no-jinja'], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(run.error, undefined, `python3 runs serve.sh's helpers: ${run.error?.message}`);
  assert.equal(run.status, 0, run.stderr);
  return { flag: run.stdout.trim(), stderr: run.stderr };
}

describe('the weight repacking check: asked once per model file, its verdict kept beside the binary', function () {
  this.timeout(60_000);
  let dir: ReturnType<typeof makeTempFolder>;
  beforeEach(() => (dir = makeTempFolder('codewiki-repack-')));
  afterEach(() => dir.cleanup());

  it('a right answer keeps --repack, and the same file reached through a symlinked folder is not asked again', () => {
    const server = fakeLlamaServer(dir.path, 'Paris');
    mkdirSync(join(dir.path, 'models'));
    const model = join(dir.path, 'models', 'model.gguf');
    writeFileSync(model, 'GGUF');
    // The test suite's caches link to the shared models folder (test/realModel/sharedModelCache.ts).
    symlinkSync(join(dir.path, 'models'), join(dir.path, 'linked-models'));

    const first = check(server.bin, model, dir.path);
    assert.equal(first.flag, '--repack');
    assert.match(first.stderr, /weight repacking on this CPU: right/);
    const again = check(server.bin, join(dir.path, 'linked-models', 'model.gguf'), dir.path);
    assert.equal(again.flag, '--repack');
    assert.deepEqual(server.starts(), [`${model} repack`], 'one throw-away server, with --repack');
    assert.equal(readdirSync(dir.path).filter((f) => f.startsWith('repack-verdict-')).length, 1, 'one verdict');

    const other = join(dir.path, 'models', 'other.gguf');
    writeFileSync(other, 'GGUF');
    check(server.bin, other, dir.path);
    assert.equal(server.starts().length, 2, 'another model file is asked once');
  });

  it('two servers starting at once ask once: the second waits for the verdict of the first', async () => {
    const server = fakeLlamaServer(dir.path, 'Paris');
    const model = join(dir.path, 'model.gguf');
    writeFileSync(model, 'GGUF');
    const start = () =>
      new Promise<string>((done, fail) => {
        const child = spawn('python3', [REPACK_CHECK, server.bin, model, dir.path, '--no-jinja']);
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', fail);
        child.on('close', (code) => (code === 0 ? done(out.trim()) : fail(new Error(`repack_check.py exited ${code}`))));
      });
    assert.deepEqual(await Promise.all([start(), start()]), ['--repack', '--repack']);
    assert.equal(server.starts().length, 1, 'one throw-away server for both');
  });

  it('a verdict that cannot be kept (no such folder) still gives this start its flag', () => {
    const server = fakeLlamaServer(dir.path, 'Paris');
    const model = join(dir.path, 'model.gguf');
    writeFileSync(model, 'GGUF');
    const unwritable = check(server.bin, model, join(dir.path, 'missing'));
    assert.equal(unwritable.flag, '--repack');
    assert.match(unwritable.stderr, /repack verdict not kept/);
  });

  it('a wrong answer keeps --no-repack, remembered as such', () => {
    const server = fakeLlamaServer(dir.path, '000x,9');
    const model = join(dir.path, 'model.gguf');
    writeFileSync(model, 'GGUF');
    const first = check(server.bin, model, dir.path);
    assert.equal(first.flag, '--no-repack');
    assert.match(first.stderr, /WRONG .*000x,9/);
    assert.equal(check(server.bin, model, dir.path).flag, '--no-repack');
    assert.equal(server.starts().length, 1);
  });
});
