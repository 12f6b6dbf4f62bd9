import { join } from 'node:path';
import { createCodewikiEngine } from '../src/core/codewikiEngine';
import { compileActionPrompt } from '../src/core/actionPrompt/compileActionPrompt';
import type { ExecutorEvent } from '../src/core/engine/executorEvents';
import { estimateTokens } from '../src/core/llm/tokenEstimate';
import { NO_MODELS } from '../src/core/llm/modelProvider';
import { type BenchRow, fmt } from './benchTable';

const ROOT = join(__dirname, '..');

/** The same final prompt, but with every file under the module instead of a selection. */
const EVERY_FILE = `title: every file
input_variables:
  - name: module_path
tool_chain:
  - tool: get_file_summaries
    input: { path: "{module_path}", max_files: 5000 }
    select: "$.files[*].path"
    output_variable: all_paths
  - tool: get_files_content_by_list
    input: "{all_paths}"
    output_variable: selected_files_content
llm_prompt_template:
  human: "Design document for {module_path}:\\n{selected_files_content}"
`;

/**
 * Tokens sent by the module-design-doc prompt on this project's own src/, with smart selection
 * (selector prompt + final prompt with the selected files) against the final prompt carrying
 * every file. Dry runs: nothing is sent, so the selection is the dry run's stand-in (the first
 * max_files files); prompt sizes are estimated with the engine's own token estimate.
 */
export async function benchTokenEconomy(): Promise<BenchRow[]> {
  const engine = await createCodewikiEngine({
    workspaceRoot: ROOT,
    builtinPromptsDir: join(ROOT, 'action-prompts'),
    models: NO_MODELS,
    executor: { maxInputTokens: 10_000_000 },
  });
  const count = async (prompt: Parameters<typeof engine.executor.run>[0], inputs: Record<string, unknown>) => {
    let tokens = 0;
    const onEvent = (e: ExecutorEvent) => {
      if (e.type === 'prompt-preview') tokens += e.messages.reduce((n, m) => n + estimateTokens(m.content), 0);
    };
    const result = await engine.executor.run(prompt, inputs, { dryRun: true, onEvent });
    if (result.status !== 'success') throw new Error(result.log.error);
    return tokens;
  };
  const smart = await count(engine.catalog.get('module-design-doc')!, {
    module_path: 'src',
    task_description: 'How action prompts are loaded, scheduled and executed',
    max_files: 8,
  });
  const every = await count(compileActionPrompt(EVERY_FILE, { file: 'every.yaml', id: 'every', source: 'file', tools: engine.registry }), {
    module_path: 'src',
  });
  return [
    {
      figure: 'Token economy: module-design-doc on src/ (selector + final prompt, 8 files) vs every file',
      result: `${fmt(smart, 0)} vs ${fmt(every, 0)} tokens = ${fmt(every / smart, 1)}× fewer`,
      goal: 'report the ratio',
    },
  ];
}
