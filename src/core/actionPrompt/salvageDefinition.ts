import { actionPromptSchema, inputVariableSchema, stepSchema, type ActionPromptDefinition, type StepDefinition } from './actionPromptSchema';

/**
 * What still passes the schema in a file that does not. A schema error used to hide every other
 * problem until it was fixed, so a user fixed one error per `validate` run. The parts kept here
 * are compiled as usual (tools, references, cycles) so one pass lists every problem; nothing is
 * ever run from a salvaged definition.
 */
export interface SalvagedDefinition {
  definition: ActionPromptDefinition;
  /** tool_chain indices whose step failed the schema: placeholders that only define their output name. */
  invalidSteps: Map<number, { outputVariable?: string }>;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function salvageDefinition(value: unknown): SalvagedDefinition | undefined {
  if (!isRecord(value)) return undefined;
  const shape = actionPromptSchema.shape;
  const field = <K extends keyof typeof shape>(key: K, fallback: unknown): unknown => {
    const parsed = shape[key].safeParse(value[key]);
    return parsed.success ? parsed.data : fallback;
  };

  // An input that fails the schema still defines its name, so references to it are not reported twice.
  const inputs = Array.isArray(value.input_variables)
    ? value.input_variables.flatMap((raw) => {
        const parsed = inputVariableSchema.safeParse(raw);
        if (parsed.success) return [parsed.data];
        const name = isRecord(raw) && typeof raw.name === 'string' && IDENTIFIER.test(raw.name) ? raw.name : undefined;
        return name ? [{ name, type: 'text' as const }] : [];
      })
    : [];

  const invalidSteps = new Map<number, { outputVariable?: string }>();
  const chain: StepDefinition[] = Array.isArray(value.tool_chain)
    ? value.tool_chain.map((raw, index) => {
        const parsed = stepSchema.safeParse(raw);
        if (parsed.success) return parsed.data;
        const trimmed = withoutInvalidKeys(raw, parsed.error.issues);
        if (trimmed) return trimmed;
        const output = isRecord(raw) && typeof raw.output_variable === 'string' && IDENTIFIER.test(raw.output_variable) ? raw.output_variable : undefined;
        invalidSteps.set(index, { outputVariable: output });
        return { tool: '' };
      })
    : [];

  const definition = {
    title: field('title', 'untitled'),
    description: field('description', undefined),
    version: field('version', undefined),
    input_variables: inputs,
    llm_tools: field('llm_tools', []),
    tool_chain: chain,
    llm_prompt_template: field('llm_prompt_template', undefined),
    output: field('output', undefined),
    models: field('models', undefined),
    max_concurrency: field('max_concurrency', undefined),
    agent_callable: field('agent_callable', undefined),
  } as ActionPromptDefinition;
  return { definition, invalidSteps };
}

/** Keys that only make sense together: dropping one for a schema error drops its partners, so no false problem follows. */
const PARTNERS: Record<string, string[]> = {
  on_error: ['fallback'],
  fallback: ['on_error'],
  for_each: ['as', 'concurrency'],
};

/**
 * The step without the keys the schema rejected (already reported), when what is left is a valid
 * step: its tool, input and references are then checked too, e.g. an undefined `{name}` in the
 * input of a step whose `retry` is mistyped.
 */
function withoutInvalidKeys(raw: unknown, issues: ReadonlyArray<{ path: PropertyKey[] }>): StepDefinition | undefined {
  if (!isRecord(raw)) return undefined;
  const copy: Record<string, unknown> = { ...raw };
  const drop = (key: string) => {
    if (!(key in copy)) return;
    delete copy[key];
    for (const partner of PARTNERS[key] ?? []) drop(partner);
  };
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === 'string') drop(key);
    else if (issue.path.length === 0) for (const unknown of (issue as { keys?: string[] }).keys ?? []) drop(unknown);
  }
  const parsed = stepSchema.safeParse(copy);
  return parsed.success ? parsed.data : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
