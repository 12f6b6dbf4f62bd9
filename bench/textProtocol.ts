import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentToolSet } from '../src/core/agent/agentToolSet';
import { textProtocolInstructions } from '../src/core/agent/textProtocol/toolDefinitionsText';
import { requestCalls, schemasByName } from '../src/core/agent/textProtocol/textRequests';
import { ToolRequestStream } from '../src/core/agent/textProtocol/toolRequestStream';
import { createCodewikiEngine } from '../src/core/codewikiEngine';
import { estimateTokens } from '../src/core/llm/tokenEstimate';
import { NO_MODELS } from '../src/core/llm/modelProvider';
import { type BenchRow, fmt, median } from './benchTable';

const ROOT = join(__dirname, '..');
const MB = 1024 * 1024;

/** An answer of about `bytes` characters with `blocks` request blocks spread through prose, as stream chunks of 1–16 chars. */
function streamedAnswer(bytes: number, blocks: number): string[] {
  const prose = 'The loader reads each file, checks it against the schema and reports problems with line numbers. ';
  const block = (n: number) =>
    `\n<<<[TOOL_REQUEST]>>>\ntool_name: 「始」write_file「末」\npath: 「始」notes/${n}.md「末」\ncontent: 「始」\n# Note ${n}\n${'A line of 「content」 with 「末」-like marks.\n'.repeat(20)}「末」\n<<<[END_TOOL_REQUEST]>>>\n`;
  const parts: string[] = [];
  const gap = Math.floor(bytes / blocks);
  for (let n = 0; n < blocks; n++) {
    const b = block(n);
    parts.push(prose.repeat(Math.max(0, Math.ceil((gap - b.length) / prose.length))), b);
  }
  const text = parts.join('');
  const chunks: string[] = [];
  let seed = 7;
  for (let at = 0; at < text.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const size = 1 + (seed % 16);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

/** Median ms to stream the chunks through the parser and read every block as a call. */
function parseTime(chunks: string[], expectedBlocks: number, runs = 7): { ms: number; chars: number } {
  const schemas = schemasByName([
    {
      type: 'function',
      function: { name: 'write_file', description: '', parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
    },
  ]);
  const chars = chunks.reduce((n, c) => n + c.length, 0);
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const stream = new ToolRequestStream();
    let visible = 0;
    for (const chunk of chunks) visible += stream.push(chunk).length;
    visible += stream.end().length;
    const calls = requestCalls(stream.blocks, schemas, 1);
    times.push(performance.now() - started);
    if (calls.length !== expectedBlocks || calls.some((c) => !c.args)) throw new Error(`expected ${expectedBlocks} good blocks, got ${calls.length}`);
    if (visible > chars) throw new Error('the visible text cannot be longer than the answer');
  }
  return { ms: median(times), chars };
}

/**
 * The text protocol's two figures: the streaming parser's throughput on a 1 MB answer with 100 blocks
 * (and the per-MB time at 4 MB and for one 1 MB block, which would grow if anything were re-scanned),
 * and the system-prompt tokens the default tool set costs as text against native `tools` (the JSON the
 * server's chat template renders; both with the engine's token estimate).
 */
export async function benchTextProtocol(): Promise<BenchRow[]> {
  parseTime(streamedAnswer(MB, 100), 100, 3); // warm-up: the JIT would otherwise flatter the later, larger runs
  const one = parseTime(streamedAnswer(MB, 100), 100);
  const four = parseTime(streamedAnswer(4 * MB, 400), 400);
  const perMb = (r: { ms: number; chars: number }) => r.ms / (r.chars / MB);
  const giant = [
    '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」write_file「末」\npath: 「始」big.md「末」\ncontent: 「始」',
    'x'.repeat(MB),
    '「末」\n<<<[END_TOOL_REQUEST]>>>',
  ].join('');
  const giantChunks = giant.match(/[^]{1,8}/g)!;
  const single = parseTime(giantChunks, 1);
  const ratio = perMb(four) / perMb(one);

  const engine = await createCodewikiEngine({ workspaceRoot: ROOT, builtinPromptsDir: join(ROOT, 'action-prompts'), models: NO_MODELS });
  const tools = AgentToolSet.create(engine.agentRegistry);
  const native = estimateTokens(JSON.stringify(tools.definitions));
  const text = estimateTokens(textProtocolInstructions(tools.definitions));
  return [
    {
      figure: 'Text tool protocol: streaming parser, 1 MB answer with 100 blocks (1–16 char chunks)',
      result: `${fmt(one.ms, 1)} ms = ${fmt(one.chars / MB / (one.ms / 1000), 0)} MB/s`,
      goal: 'linear; far above model output rates',
    },
    {
      figure: 'Text tool protocol: parser time per MB, 4 MB/400 blocks and one 1 MB block vs 1 MB/100 blocks',
      result: `${fmt(perMb(four), 1)} and ${fmt(perMb(single), 1)} vs ${fmt(perMb(one), 1)} ms/MB (×${fmt(ratio, 2)}, ×${fmt(perMb(single) / perMb(one), 2)})`,
      goal: 'per-MB time flat (≤ 1.5×): nothing re-scanned',
      met: ratio <= 1.5 && perMb(single) / perMb(one) <= 1.5,
    },
    {
      figure: `Text tool protocol: prompt overhead of the default tool set (${tools.size} tools)`,
      result: `${fmt(text, 0)} tokens as text (definitions + instructions) vs ${fmt(native, 0)} as native tools JSON (${text >= native ? '+' : ''}${fmt(((text - native) / native) * 100, 0)}%)`,
      goal: 'report (estimate: ASCII/4 + non-ASCII)',
    },
  ];
}
