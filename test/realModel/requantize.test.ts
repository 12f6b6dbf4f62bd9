import { strict as assert } from 'node:assert';
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { pinnedModels, REPO_ROOT, startLocalModel, waitFor, type LocalModelServer } from './localModelServer';

const run = promisify(execFile);
const SCRIPTS = join(REPO_ROOT, 'scripts', 'local-model');

/** What a script run printed and whether it succeeded, without throwing on a non-zero exit. */
async function script(name: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const options = { maxBuffer: 8 * 1024 * 1024, env: { ...process.env, ...env } };
    const { stdout, stderr } = await run('bash', [join(SCRIPTS, name), ...args], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Whether a llama-quantize writing `out` is running (from /proc: no pgrep needed). */
function quantizing(out: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return args[0]!.endsWith('llama-quantize') && args.includes(`${out}.tmp`);
      } catch {
        return false; // gone meanwhile
      }
    });
}

function magic(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const bytes = Buffer.alloc(4);
    readSync(fd, bytes, 0, 4, 0);
    return bytes.toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/**
 * The CPU bench's other weight types (bench/cpuSettingsBench.ts): requantize.sh builds llama-quantize from the same
 * llama.cpp tree as llama-server, writes the pinned weights again as the type asked for, once, and the copy is a
 * model llama-server serves with right answers. The fast test model keeps it to seconds.
 */
describe('real model: weights quantized again with llama.cpp’s own llama-quantize', function () {
  this.timeout(600_000); // the first run builds llama-quantize in llama-server's build folder
  const model = pinnedModels().fastTestModel;
  let server: LocalModelServer | undefined;
  after(async () => server?.stop());

  it('is made once, cached beside the pinned file, and served with a right answer', async () => {
    // A copy left by an earlier run would let the first call skip llama-quantize: removed, so it is made here.
    const located = await script('requantize.sh', ['Q8_0', model]);
    assert.equal(located.code, 0, located.stderr);
    const path = located.stdout.trim().split('\n').at(-1)!;
    rmSync(path, { force: true });
    const first = await script('requantize.sh', ['Q8_0', model]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /quantizing .* to Q8_0/, 'made by llama-quantize');
    assert.equal(first.stdout.trim().split('\n').at(-1), path);
    assert.ok(path.endsWith(`/${model}-Q8_0.gguf`), path);
    assert.equal(magic(path), 'GGUF');
    const made = statSync(path);

    const second = await script('requantize.sh', ['Q8_0', model]);
    assert.equal(second.stdout.trim().split('\n').at(-1), path, 'the same copy');
    assert.doesNotMatch(second.stderr, /quantizing/, 'not made again');
    assert.equal(statSync(path).ino, made.ino);
    assert.equal(statSync(path).mtimeMs, made.mtimeMs, 'not written again');

    // Made earlier, it is served without asking for the tool: a llama-server from elsewhere has no llama-quantize.
    const elsewhere = await script('requantize.sh', ['Q8_0', model], { CODEWIKI_LLAMA_SERVER: '/nonexistent/llama-server' });
    assert.equal(elsewhere.code, 0, elsewhere.stderr);
    assert.equal(elsewhere.stdout.trim().split('\n').at(-1), path);

    server = await startLocalModel({ gguf: path, args: ['--n-predict', '16'] });
    assert.equal(server.model, `${model}-Q8_0`, 'served under the file name, as serve.sh --gguf does');
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 16 });
    const answer = await models.model('main').invoke('What is the capital of France? Answer in one word.');
    assert.match(String(answer.content), /paris/i);
  });

  it('builds the tool again when llama-server was rebuilt after it', async () => {
    const tool = (await script('ensure-llama-server.sh', ['--tool', 'llama-quantize'])).stdout.trim().split('\n').at(-1)!;
    const marker = join(dirname(tool), '.complete'); // written when llama-server's build completes
    const earlier = new Date(statSync(marker).mtimeMs - 1_000); // as if llama-server had been built after the tool
    utimesSync(tool, earlier, earlier);
    const rebuilt = await script('ensure-llama-server.sh', ['--tool', 'llama-quantize']);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stderr, /building llama-quantize/);
    assert.ok(statSync(tool).mtimeMs > statSync(marker).mtimeMs, 'the new tool is newer than the build marker');
    const again = await script('ensure-llama-server.sh', ['--tool', 'llama-quantize']);
    assert.doesNotMatch(again.stderr, /building/, 'built once');
  });

  it('leaves no half-written file and no running tool when interrupted', async () => {
    const path = (await script('requantize.sh', ['Q8_0', model])).stdout.trim().split('\n').at(-1)!;
    rmSync(path, { force: true });
    const child = spawn('bash', [join(SCRIPTS, 'requantize.sh'), 'Q8_0', model], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupted while llama-quantize writes: the half file exists, so removing it is what the test checks.
    await waitFor(async () => existsSync(`${path}.tmp`), 'llama-quantize to start writing', 60_000);
    child.kill('SIGTERM');
    assert.equal(await exited, 143, `stopped by the signal, not finished: ${stderr}`);
    assert.equal(quantizing(path), false, 'llama-quantize was stopped with the script');
    assert.equal(existsSync(path), false, 'no copy was made');
    assert.equal(existsSync(`${path}.tmp`), false, 'no half-written copy is left');
  });

  it('refuses a type or a tool name that is not one, saying what it wants', async () => {
    const type = await script('requantize.sh', ['q8; rm -rf ~', model]);
    assert.notEqual(type.code, 0);
    assert.match(type.stderr, /usage: requantize\.sh TYPE \[NAME\]/);
    const tool = await script('ensure-llama-server.sh', ['--tool', '../../bin/sh']);
    assert.notEqual(tool.code, 0);
    assert.match(tool.stderr, /--tool needs a llama\.cpp tool name such as llama-quantize \(got '\.\.\/\.\.\/bin\/sh'\)/);
  });
});
