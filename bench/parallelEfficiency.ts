import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { sleep } from '../src/core/util/abort';
import { CustomAgentExecutor } from '../src/core/engine/customAgentExecutor';
import { compileActionPrompt } from '../src/core/actionPrompt/compileActionPrompt';
import { NO_MODELS } from '../src/core/llm/modelProvider';
import { ToolRegistry } from '../src/core/tools/toolRegistry';
import { type BenchRow, fmt, median } from './benchTable';

/** Eight independent 200 ms steps should take one step's time when they run in parallel. */
export async function benchParallelEfficiency(runs = 5): Promise<BenchRow[]> {
  const registry = new ToolRegistry().register(
    tool(async ({ ms }, config) => sleep(ms, config?.signal).then(() => ms), { name: 'wait', description: 'Sleeps', schema: z.object({ ms: z.number() }) }),
    { category: 'custom', kind: 'read', displayName: 'wait', timeoutMs: 10_000 },
  );
  const steps = Array.from({ length: 8 }, (_, i) => `  - tool: wait\n    input: 200\n    output_variable: s${i}\n`).join('');
  const prompt = compileActionPrompt(`title: parallel\ntool_chain:\n${steps}`, { file: 'bench.yaml', id: 'bench', source: 'file', tools: registry });
  const executor = new CustomAgentExecutor({ registry, models: NO_MODELS, options: { maxConcurrency: 8 } });
  const ratios: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await executor.run(prompt, {});
    ratios.push((performance.now() - started) / 200);
  }
  const ratio = median(ratios);
  return [
    {
      figure: `Parallel efficiency (8 independent 200 ms steps, median of ${runs})`,
      result: `wall ÷ 200 ms = ${fmt(ratio, 3)}`,
      goal: '≤ 1.15',
      met: ratio <= 1.15,
    },
  ];
}
