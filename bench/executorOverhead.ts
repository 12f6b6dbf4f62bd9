import { z } from 'zod';
import { CustomAgentExecutor } from '../src/core/engine/customAgentExecutor';
import { compileActionPrompt } from '../src/core/actionPrompt/compileActionPrompt';
import { NO_MODELS } from '../src/core/llm/modelProvider';
import { codewikiTool } from '../src/core/tools/codewikiTool';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { type BenchRow, fmt, median } from './benchTable';

/** A 1,000-step chain where each no-op step reads the previous step's output. */
export async function benchExecutorOverhead(steps = 1000, runs = 7): Promise<BenchRow[]> {
  const registry = new ToolRegistry().register(
    codewikiTool(async ({ value }) => value, { name: 'noop', description: 'Returns its input', schema: z.object({ value: z.unknown() }) }),
    { category: 'custom', kind: 'read', displayName: 'noop', timeoutMs: 10_000 },
  );
  const chain = Array.from({ length: steps }, (_, i) => `  - tool: noop\n    input: "{v${i}}"\n    output_variable: v${i + 1}\n`).join('');
  const yaml = `title: overhead\ninput_variables:\n  - name: v0\ntool_chain:\n${chain}`;
  const prompt = compileActionPrompt(yaml, { file: 'bench.yaml', id: 'bench', source: 'file', tools: registry });
  const executor = new CustomAgentExecutor({ registry, models: NO_MODELS });
  const perStep: number[] = [];
  const heapBefore = process.memoryUsage().heapUsed;
  let peakHeap = heapBefore;
  for (let run = 0; run < runs + 1; run++) {
    let events = 0;
    const started = performance.now();
    const result = await executor.run(prompt, { v0: 'x' }, { onEvent: () => events++ });
    const elapsed = performance.now() - started;
    if (result.status !== 'success') throw new Error(`overhead chain ${result.status}: ${result.log.error}`);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (run > 0) perStep.push((elapsed * 1000) / steps); // run 0 warms the JIT
  }
  const us = median(perStep);
  return [
    { figure: `Executor overhead per step (${steps}-step chain, no-op tool, median of ${runs})`, result: `${fmt(us)} µs`, goal: '≤ 50 µs', met: us <= 50 },
    {
      figure: 'Executor peak memory during the overhead runs',
      result: `heap +${fmt((peakHeap - heapBefore) / 1e6)} MB, max RSS ${fmt(process.resourceUsage().maxRSS / 1024)} MB`,
      goal: 'report',
    },
  ];
}
