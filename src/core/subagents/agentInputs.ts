import { z } from 'zod';
import { renderValue } from '../values/renderValue';
import type { AgentInput, AgentInputType } from './agentDefinitionSchema';

/**
 * The arguments of a sub-agent's tool, as zod built from its `inputs`; the JSON Schema the calling
 * model is sent comes out of the same object the arguments are validated with (seed 003).
 */
export function agentInputsToZod(inputs: readonly AgentInput[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const input of inputs) {
    const field = fieldFor(input.type).describe(input.description);
    shape[input.name] = input.required ? field : field.optional();
  }
  return z.object(shape);
}

function fieldFor(type: AgentInputType): z.ZodType {
  switch (type) {
    case 'string':
      return z.string();
    case 'number':
      return z.number();
    case 'integer':
      return z.number().int();
    case 'boolean':
      return z.boolean();
    case 'string[]':
      return z.array(z.string());
    case 'number[]':
      return z.array(z.number());
  }
}

/** Every declared input, those the caller left out as empty text, so `{name}` in the system prompt always resolves. */
export function inputVariables(inputs: readonly AgentInput[], given: Record<string, unknown>): Map<string, unknown> {
  return new Map(inputs.map((input) => [input.name, given[input.name] ?? '']));
}

/** The sub-agent's first user message: the task as the calling agent gave it, one input per entry. */
export function renderTask(inputs: readonly AgentInput[], given: Record<string, unknown>): string {
  const lines = inputs.flatMap((input) => {
    const value = given[input.name];
    if (value === undefined || value === null || value === '') return [];
    const text = renderValue(value);
    return [text.includes('\n') ? `${input.name}:\n${text}` : `${input.name}: ${text}`];
  });
  const task = lines.length ? lines.join('\n') : '(no inputs)';
  return `The calling agent gave you this task:\n\n${task}\n\nWork on it with your tools, then give your final answer; it is returned to the calling agent as is.`;
}
