import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { pinnedModels, REPO_ROOT, startLocalModel, type LocalModelServer } from './localModelServer';

const run = promisify(execFile);
const SCRIPTS = join(REPO_ROOT, 'scripts', 'local-model');

/** What a script run printed and whether it succeeded, without throwing on a non-zero exit. */
async function script(name: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('bash', [join(SCRIPTS, name), ...args], { maxBuffer: 8 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
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

    server = await startLocalModel({ gguf: path, args: ['--n-predict', '16'] });
    assert.equal(server.model, `${model}-Q8_0`, 'served under the file name, as serve.sh --gguf does');
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0, maxTokens: 16 });
    const answer = await models.model('main').invoke('What is the capital of France? Answer in one word.');
    assert.match(String(answer.content), /paris/i);
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
