import { z } from 'zod';
import type { LlmToolDefinition } from '../llmToolDefinition';
import { renderValue } from '../../values/renderValue';
import { resolveTemplateString } from '../../template/renderTemplate';
import { parsePathList } from '../file/parsePathList';
import { defineLlmTool, type ToolMessage } from './defineLlmTool';
import { askForJson } from './jsonAnswer';

const PARAMETER_TYPES = {
  string: () => z.string(),
  number: () => z.number(),
  boolean: () => z.boolean(),
  array: () => z.array(z.unknown()),
  object: () => z.record(z.string(), z.unknown()),
} as const;

/**
 * An LLM tool declared in a prompt's `llm_tools` section: its parameters become a zod schema
 * (so it validates, binds and shows up in `codewiki tools` like any built-in), its system and
 * human templates are filled from the arguments, and its answer is parsed by `output`.
 */
export function createYamlLlmTool(definition: LlmToolDefinition) {
  const shape: Record<string, z.ZodType> = {};
  for (const p of definition.parameters) {
    const base = PARAMETER_TYPES[p.type]().describe(p.description ?? p.name);
    shape[p.name] = p.required ? base : base.optional();
  }
  const render = (template: string, input: Record<string, unknown>) => {
    const value = resolveTemplateString(template, new Map(Object.entries(input)));
    return typeof value === 'string' ? value : renderValue(value);
  };
  return defineLlmTool({
    name: definition.name,
    description: definition.description,
    schema: z.object(shape),
    model: definition.model,
    maxTokens: definition.max_tokens,
    messages: (input) => {
      const messages: ToolMessage[] = [];
      if (definition.system) messages.push({ role: 'system', content: render(definition.system, input) });
      messages.push({ role: 'human', content: render(definition.human, input) });
      return messages;
    },
    async run(context) {
      if (definition.output === 'json') return askForJson(context, context.prompt, definition.schema);
      const answer = await context.ask(context.prompt);
      return definition.output === 'list' ? parsePathList(answer) : answer.trim();
    },
    dryRunResult: () => (definition.output === 'list' ? [] : definition.output === 'json' ? null : `[dry run: ${definition.name} would answer here]`),
  });
}
