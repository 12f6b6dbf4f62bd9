import { singleParameter } from '../actionPrompt/compileSteps';
import type { TemplateInput } from '../actionPrompt/actionPromptSchema';
import { renderValue } from '../values/renderValue';
import { resolveTemplateValue, type Variables } from '../template/renderTemplate';

interface JsonSchemaLike {
  type?: string | string[];
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
}

/**
 * Turns a step's `input` into tool arguments. A lone value binds to the tool's single
 * parameter (seed 001 gives `get_file_summaries` just "{module_path}"). Values are then fitted
 * to the parameter types: structured output flowing into a text parameter is rendered as
 * readable text, and a numeric string flowing into a number parameter becomes a number,
 * because step outputs rarely have exactly the shape the next tool declares.
 */
export function bindStepInput(input: TemplateInput | undefined, variables: Variables, schema: JsonSchemaLike): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const resolved = resolveTemplateValue(input ?? {}, variables);
  let args: Record<string, unknown>;
  if (input !== undefined && input !== null && typeof input === 'object' && !Array.isArray(input)) {
    args = resolved as Record<string, unknown>;
  } else {
    const target = singleParameter(Object.keys(properties), schema.required ?? []);
    if (!target) throw new Error('this tool takes several parameters; give input as a mapping');
    args = { [target]: resolved };
  }
  for (const [name, value] of Object.entries(args)) args[name] = fitToType(value, properties[name]);
  return args;
}

function fitToType(value: unknown, schema: JsonSchemaLike | undefined): unknown {
  const type = schema?.type;
  if (type === 'string' && value !== undefined && typeof value !== 'string') return renderValue(value);
  if ((type === 'number' || type === 'integer') && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  if (type === 'boolean' && typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  return value;
}
