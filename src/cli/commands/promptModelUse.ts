import type { CompiledActionPrompt, CompiledStep } from '../../core/actionPrompt/compiledActionPrompt';
import type { ToolRegistry } from '../../core/tools/toolRegistry';

interface PromptLookup {
  get(id: string): CompiledActionPrompt | undefined;
}

/**
 * What in a run of `prompt` would call a model: its final answer, a step (or fallback) whose tool
 * is an LLM tool, or a nested prompt that calls one. Empty when the chain runs on file tools
 * alone, so `codewiki run` can run it without `--model`.
 */
export function modelUses(prompt: CompiledActionPrompt, tools: Pick<ToolRegistry, 'get'>, prompts: PromptLookup, seen = new Set<string>()): string[] {
  seen.add(prompt.id);
  const uses: string[] = [];
  if (prompt.finalPrompt) uses.push('the final answer');
  const ownLlmTools = new Set(prompt.llmTools.map((t) => t.name));
  const visit = (step: CompiledStep) => {
    const metadata = tools.get(step.tool)?.metadata;
    const where = `step "${step.id}" (${step.tool})`;
    if (ownLlmTools.has(step.tool) || metadata?.category === 'llm') uses.push(where);
    else if (metadata?.category === 'prompt') {
      const nested = prompts.get(step.tool);
      // A prompt that cannot be looked up, or one already on the path (a cycle), is assumed to need a model: asking for one is the safe mistake.
      if (!nested || seen.has(nested.id)) uses.push(where);
      else uses.push(...modelUses(nested, tools, prompts, new Set(seen)).map((use) => `${where} → ${use}`));
    }
    step.fallback.forEach(visit);
  };
  prompt.steps.forEach(visit);
  return uses;
}
