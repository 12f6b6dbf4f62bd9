import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { compileActionPrompt } from '../../src/core/actionPrompt/compileActionPrompt';
import type { CompiledActionPrompt } from '../../src/core/actionPrompt/compiledActionPrompt';
import { sleep } from '../../src/core/util/abort';
import { CustomAgentExecutor } from '../../src/core/engine/customAgentExecutor';
import type { ExecutorOptions } from '../../src/core/engine/executorTypes';
import type { ExecutorEvent } from '../../src/core/engine/executorEvents';
import { NO_MODELS, type ModelProvider } from '../../src/core/llm/modelProvider';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { registerLlmTools } from '../../src/core/tools/llm/registerLlmTools';
import { ToolRegistry } from '../../src/core/tools/toolRegistry';

/** Temporary workspaces not cleaned up yet: a helper that makes several per test keeps only the last one to clean. */
const uncleaned = new Set<string>();
process.once('exit', () => {
  for (const root of uncleaned) rmSync(root, { recursive: true, force: true });
});

/** A real temporary folder with the given files; removed by the returned cleanup, or when the test process exits. */
export function tempWorkspace(files: Record<string, string> = {}): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'codewiki-ws-'));
  uncleaned.add(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const cleanup = () => {
    rmSync(root, { recursive: true, force: true });
    uncleaned.delete(root);
  };
  return { root, cleanup };
}

/** Records what the test tools saw: calls in start order and the peak number running at once. */
export class ToolProbe {
  readonly calls: Array<{ tool: string; args: Record<string, unknown> }> = [];
  running = 0;
  peak = 0;
  failuresLeft = new Map<string, number>();

  async track<T>(name: string, args: Record<string, unknown>, work: () => Promise<T>): Promise<T> {
    this.calls.push({ tool: name, args });
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    try {
      return await work();
    } finally {
      this.running--;
    }
  }
}

/**
 * Small deterministic tools for exercising the scheduler: `echo` returns its value, `wait`
 * sleeps (honouring the signal), `flaky` fails a set number of times, `boom` always fails.
 */
export function testRegistry(probe = new ToolProbe()): ToolRegistry {
  const registry = new ToolRegistry();
  const meta = { category: 'custom', kind: 'read', displayName: 'test', timeoutMs: 5_000 } as const;
  registry.register(
    tool(async ({ value }) => probe.track('echo', { value }, async () => value), {
      name: 'echo',
      description: 'Returns its value',
      schema: z.object({ value: z.unknown() }),
    }),
    meta,
  );
  registry.register(
    tool(
      async ({ ms, value }, config) =>
        probe.track('wait', { ms, value }, async () => {
          await sleep(ms, config?.signal);
          return value ?? ms;
        }),
      { name: 'wait', description: 'Sleeps', schema: z.object({ ms: z.number(), value: z.unknown().optional() }) },
    ),
    meta,
  );
  registry.register(
    tool(
      async ({ key }) =>
        probe.track('flaky', { key }, async () => {
          const left = probe.failuresLeft.get(key) ?? 0;
          if (left > 0) {
            probe.failuresLeft.set(key, left - 1);
            throw new Error(`flaky ${key} failed`);
          }
          return `ok ${key}`;
        }),
      { name: 'flaky', description: 'Fails a set number of times', schema: z.object({ key: z.string() }) },
    ),
    meta,
  );
  registry.register(
    tool(
      async ({ reason }) =>
        probe.track('boom', { reason }, async () => {
          throw new Error(`boom: ${reason}`);
        }),
      { name: 'boom', description: 'Always fails', schema: z.object({ reason: z.string() }) },
    ),
    meta,
  );
  registerLlmTools(registry);
  return registry;
}

export function compileYaml(yaml: string, registry: ToolRegistry, id = 'test-prompt', file = 'test-prompt.yaml'): CompiledActionPrompt {
  return compileActionPrompt(yaml, { file, id, source: 'file', tools: registry });
}

export function modelsFor(url: string): ModelProvider {
  return new OpenAiModelProvider({ baseURL: url, model: 'main-model', timeoutMs: 5_000, maxRetries: 0 }, { model: 'tool-model' });
}

export async function runYaml(
  yaml: string,
  inputs: Record<string, unknown> = {},
  options: { registry?: ToolRegistry; models?: ModelProvider; executor?: Partial<ExecutorOptions>; signal?: AbortSignal; dryRun?: boolean } = {},
) {
  const registry = options.registry ?? testRegistry();
  const prompt = compileYaml(yaml, registry);
  const events: ExecutorEvent[] = [];
  const executor = new CustomAgentExecutor({ registry, models: options.models ?? NO_MODELS, options: options.executor });
  const result = await executor.run(prompt, inputs, { onEvent: (e) => events.push(e), signal: options.signal, dryRun: options.dryRun });
  return { ...result, events };
}
