import type { ToolRegistry } from '../toolRegistry';
import { createExtractJsonLlmTool } from './extractJsonTool';
import { createFileSelectorLlmTool } from './fileSelectorTool';
import { createSummarizeLlmTool } from './summarizeTool';

/** The built-in LLM-as-a-tool steps; they take their model from the run, so one registration serves every run. */
export function registerLlmTools(registry: ToolRegistry): void {
  const meta = { category: 'llm', kind: 'think', timeoutMs: 180_000 } as const;
  registry
    .register(createFileSelectorLlmTool(), { ...meta, displayName: 'Select relevant files' })
    .register(createSummarizeLlmTool(), { ...meta, displayName: 'Summarise' })
    .register(createExtractJsonLlmTool(), { ...meta, displayName: 'Extract JSON' });
}
