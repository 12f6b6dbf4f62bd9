import { z } from 'zod';
import type { InputVariable } from './actionPromptSchema';

/**
 * The arguments an action prompt takes when another prompt, or (later) the agent, calls it as
 * a tool. Built as zod from `input_variables`, so the JSON Schema that models see comes out
 * of the same definition the tool validates with (seed 003 wraps sub-agents the same way).
 */
export function inputVariablesToZod(inputs: ReadonlyArray<InputVariable & { required?: boolean }>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const input of inputs) {
    let field = fieldFor(input);
    if (input.description) field = field.describe(input.description);
    const required = input.required ?? (input.default === undefined && input.type !== 'boolean');
    shape[input.name] = required ? field : field.optional();
  }
  return z.object(shape);
}

function fieldFor(input: InputVariable): z.ZodType {
  switch (input.type) {
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'select': {
      const options = (input.options ?? []).map((o) => z.literal(o));
      return options.length === 1 ? options[0] : z.union(options as unknown as [z.ZodLiteral, z.ZodLiteral, ...z.ZodLiteral[]]);
    }
    default:
      return z.string();
  }
}
