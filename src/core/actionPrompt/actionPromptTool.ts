import type { RunnableConfig } from '@langchain/core/runnables';
import type { ActionPromptDefinition } from './actionPromptSchema';
import { codewikiTool } from '../tools/codewikiTool';
import { inputVariablesToZod } from './inputSchema';
import type { ToolRegistry } from '../tools/toolRegistry';
import { toolRuntimeOf } from '../tools/toolRuntime';

/** Wraps an action prompt as a tool, so any prompt can be a step of another (a nested chain); with `agent_callable: true` the agent may call it too. */
export function registerActionPromptTool(registry: ToolRegistry, id: string, definition: ActionPromptDefinition): void {
  const promptTool = codewikiTool(async (input: Record<string, unknown>, config: RunnableConfig) => toolRuntimeOf(config).runPrompt(id, input, config), {
    name: id,
    description: [definition.title, definition.description].filter(Boolean).join(': '),
    schema: inputVariablesToZod(definition.input_variables),
  });
  registry.register(promptTool, {
    category: 'prompt',
    kind: 'think',
    displayName: definition.title,
    timeoutMs: 600_000,
    agentCallable: definition.agent_callable ?? false,
  });
}
