import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pinnedModels, startLocalModel, type LocalModelServer } from '../test/realModel/localModelServer';
import { type BenchRow, fmt, median } from './benchTable';

const ROOT = resolve(__dirname, '..');
const ROUNDS = 2;

/**
 * llama-server settings tried on top of serve.sh's own (later arguments win). The first is serve.sh's choice. A
 * `quantization` row serves the pinned weights quantized again to that type (scripts/local-model/requantize.sh). A
 * `busyCores` row runs beside that many processes that keep a core busy, as the extension host does while it
 * indexes: the thread settings that win on an idle machine are the ones that collapse there.
 */
const SETTINGS: ReadonlyArray<{ name: string; args: string[]; quantization?: string; busyCores?: number }> = [
  { name: 'serve.sh default (-t 1 -tb 2, ubatch 512, flash attention auto, repacking where its check passed)', args: [] },
  { name: 'serve.sh default, beside one busy core', args: [], busyCores: 1 },
  { name: '-t 2 -tb 2', args: ['-t', '2', '-tb', '2'] },
  { name: '-t 2 -tb 2, beside one busy core', args: ['-t', '2', '-tb', '2'], busyCores: 1 },
  { name: '-t 2 -tb 2 --poll 0, beside one busy core', args: ['-t', '2', '-tb', '2', '--poll', '0'], busyCores: 1 },
  { name: '-t 1 -tb 1', args: ['-t', '1', '-tb', '1'] },
  { name: 'ubatch 256', args: ['-ub', '256'] },
  { name: 'ubatch 1024, batch 2048', args: ['-ub', '1024', '-b', '2048'] },
  { name: 'flash attention on', args: ['-fa', 'on'] },
  { name: 'flash attention off', args: ['-fa', 'off'] },
  { name: 'weight repacking off', args: ['--no-repack'] },
  { name: 'KV cache q8_0 (with flash attention)', args: ['-fa', 'on', '-ctk', 'q8_0', '-ctv', 'q8_0'] },
  { name: 'weights Q8_0 (made from the pinned Q4_K_M)', args: [], quantization: 'Q8_0' },
  { name: 'weights Q4_0 (made from the pinned Q4_K_M)', args: [], quantization: 'Q4_0' },
];

interface Speeds {
  promptPerSecond: number;
  generatedPerSecond: number;
}

/**
 * The CPU settings of the default local model on this machine kind: prompt processing and generation speeds
 * (llama-server's own timings; the prompt is about 1,500 tokens of real source, never taken from the cache) for
 * thread counts, batch sizes, flash attention, weight repacking, a quantized KV cache and the weight types that can be
 * made from the pinned file, each with a sanity check of its answers (a setting that computes garbage, as repacking
 * once did here, is not a candidate however fast). `npm run bench -- --only cpu`: about a minute and a half per
 * setting (the first run also builds llama-quantize, seconds, and writes each requantized file, about a minute; a
 * collapsed setting beside a busy core takes a few minutes).
 */
export async function benchCpuSettings(env: NodeJS.ProcessEnv = process.env): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const source = readFileSync(join(ROOT, 'src/core/agent/agentLoop.ts'), 'utf8').slice(0, 5_600);
  for (const setting of chosenSettings(env.CODEWIKI_BENCH_CPU_SETTINGS)) {
    let server: LocalModelServer | undefined;
    const busy: ChildProcess[] = [];
    try {
      const gguf = setting.quantization ? requantized(setting.quantization) : undefined;
      server = await startLocalModel({ model: pinnedModels().defaultModel, gguf, args: setting.args });
      // Each ends by itself after ten minutes, so a bench killed before its cleanup leaves no core spinning for good.
      const spin = 'const end = Date.now() + 600000; while (Date.now() < end);';
      for (let core = 0; core < (setting.busyCores ?? 0); core++) busy.push(spawn(process.execPath, ['-e', spin], { stdio: 'ignore' }));
      // Fewer generated tokens beside a busy core: a collapsed setting makes well under one a second.
      const generated = setting.busyCores ? 16 : 64;
      const speeds: Speeds[] = [];
      for (let round = 0; round < ROUNDS; round++) speeds.push(await measure(server, `${source}\n\nIn one sentence, what does this code do?`, generated));
      const sane = await sanity(server);
      const pp = median(speeds.map((s) => s.promptPerSecond));
      const tg = median(speeds.map((s) => s.generatedPerSecond));
      rows.push({
        figure: `CPU: ${setting.name}`,
        result: `prompt ${fmt(pp)} tokens/s, generation ${fmt(tg)} tokens/s; answers ${sane ? 'right' : 'WRONG'}`,
        goal: 'prompt ≥ 60 tokens/s with right answers',
        met: sane && pp >= 60,
      });
    } catch (error) {
      rows.push({ figure: `CPU: ${setting.name}`, result: `failed: ${(error as Error).message.split('\n')[0]}`, goal: '—' });
    } finally {
      for (const burner of busy) burner.kill('SIGKILL');
      await server?.stop();
    }
  }
  return rows;
}

/**
 * The settings named in CODEWIKI_BENCH_CPU_SETTINGS (parts of their names, `;`-separated: `serve.sh default (;-t 2
 * -tb 2;Q4_0` runs the rows whose names hold one of them), or every one: the whole table takes 25–30 minutes, and a
 * new machine's CPU is checked against the few that decide first. A part that names no row is an error, not a
 * table that silently leaves it out.
 */
function chosenSettings(names: string | undefined): typeof SETTINGS {
  const parts = (names ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = parts.filter((part) => !SETTINGS.some((setting) => setting.name.includes(part)));
  if (unknown.length)
    throw new Error(
      `CODEWIKI_BENCH_CPU_SETTINGS: no setting is named like ${unknown.map((part) => `"${part}"`).join(', ')}; the settings: ${SETTINGS.map((setting) => setting.name).join('; ')}`,
    );
  return parts.length ? SETTINGS.filter((setting) => parts.some((part) => setting.name.includes(part))) : SETTINGS;
}

/** The default model's weights quantized again to `type`, made once and cached beside the pinned file. */
function requantized(type: string): string {
  const script = join(ROOT, 'scripts/local-model/requantize.sh');
  const out = execFileSync('bash', [script, type, pinnedModels().defaultModel], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').at(-1)!;
}

async function complete(
  server: LocalModelServer,
  content: string,
  maxTokens: number,
): Promise<{ text: string; timings: { prompt_per_second: number; predicted_per_second: number } }> {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // cache_prompt false: every round processes the whole prompt, so the prompt speed is measured each time.
    body: JSON.stringify({ model: server.model, temperature: 0, max_tokens: maxTokens, cache_prompt: false, messages: [{ role: 'user', content }] }),
  });
  const body = (await response.json()) as {
    choices: Array<{ message: { content: string } }>;
    timings: { prompt_per_second: number; predicted_per_second: number };
  };
  return { text: body.choices[0]!.message.content, timings: body.timings };
}

async function measure(server: LocalModelServer, prompt: string, generated: number): Promise<Speeds> {
  const { timings } = await complete(server, prompt, generated);
  return { promptPerSecond: timings.prompt_per_second, generatedPerSecond: timings.predicted_per_second };
}

/** Two questions any sane build of the model answers: a fact, and a file named in the prompt. */
async function sanity(server: LocalModelServer): Promise<boolean> {
  const capital = await complete(server, 'What is the capital of France? Answer with the city name only.', 16);
  const file = await complete(
    server,
    'Files:\nsrc/frequency.ts: countWords(words) counts how often each word occurs\nsrc/stopWords.ts: STOP_WORDS, the words to skip\n\nWhich file computes word frequencies? Answer with the path only.',
    24,
  );
  return /paris/i.test(capital.text) && /src\/frequency\.ts/.test(file.text);
}
