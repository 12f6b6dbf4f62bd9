import { z } from 'zod';
import { identifierSchema as identifier, llmToolSchema, toolNameSchema as toolName, type LlmToolDefinition } from '../tools/llmToolDefinition';

/**
 * The single definition of the action-prompt format. The loader validates with it, the build
 * emits `schemas/action-prompt.schema.json` from it for editor completion, and the types below
 * are inferred from it, so the three can never drift apart.
 */

/** `500ms`, `30s`, `2m`, or a number of seconds. */
const durationSchema = z
  .union([z.number().positive(), z.string().regex(/^\d+(\.\d+)?\s*(ms|s|m)$/, 'must look like 500ms, 30s or 2m')])
  .describe('A duration: a number of seconds, or a string such as "500ms", "30s", "2m".');

/** Tool calls in flight at once across one run, unless the prompt's max_concurrency says otherwise. */
export const DEFAULT_MAX_CONCURRENCY = 4;

const inputTypeSchema = z.enum(['text', 'multiline', 'path', 'number', 'boolean', 'select']);

const scalar = z.union([z.string(), z.number(), z.boolean()]);

export const inputVariableSchema = z
  .strictObject({
    name: identifier.describe('The variable name templates use: {name}.'),
    description: z.string().optional().describe('Shown as the field label and help text.'),
    type: inputTypeSchema.default('text'),
    default: scalar.optional(),
    required: z.boolean().optional().describe('Defaults to true unless a default is given.'),
    options: z.array(scalar).min(1).optional().describe('The choices of a select input.'),
    placeholder: z.string().optional(),
  })
  .superRefine((input, ctx) => {
    if (input.type === 'select' && !input.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'a select input needs options' });
    if (input.type !== 'select' && input.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'only select inputs take options' });
    if (input.default !== undefined && input.type === 'number' && typeof input.default !== 'number')
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'the default of a number input must be a number' });
    if (input.default !== undefined && input.type === 'boolean' && typeof input.default !== 'boolean')
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'the default of a boolean input must be true or false' });
    if (input.default !== undefined && input.options && !input.options.includes(input.default))
      ctx.addIssue({ code: 'custom', path: ['default'], message: 'the default must be one of the options' });
  });

/** A step input: a template string, or an object or list of them (any JSON shape). */
export type TemplateInput = string | number | boolean | null | TemplateInput[] | { [key: string]: TemplateInput };
const templateInput: z.ZodType<TemplateInput> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(templateInput), z.record(z.string(), templateInput)]),
);

const retrySchema = z.union([
  z.number().int().min(1).max(10),
  z.strictObject({
    attempts: z.number().int().min(1).max(10).describe('Total attempts, the first included.'),
    backoff: durationSchema.optional().describe('Wait before the second attempt; doubles each time. Default 500ms.'),
  }),
]);

export interface StepDefinition {
  id?: string;
  title?: string;
  tool: string;
  input?: TemplateInput;
  output_variable?: string;
  condition?: string;
  select?: string;
  retry?: z.infer<typeof retrySchema>;
  on_error?: 'abort' | 'continue' | 'fallback' | { fallback: StepDefinition | StepDefinition[] };
  fallback?: StepDefinition | StepDefinition[];
  timeout?: z.infer<typeof durationSchema>;
  for_each?: string;
  as?: string;
  concurrency?: number;
  run_if_skipped?: boolean;
}

/**
 * Keys a fallback step does not take: it runs once, in place of the failed step and with that step's item scope, and
 * its output is the failed step's. The loader rejects them with a message naming the key (compileSteps.ts); the
 * editor schema leaves them out, so completion and the YAML extension never suggest them there.
 */
export const NOT_IN_FALLBACK = ['condition', 'for_each', 'as', 'concurrency', 'on_error', 'fallback', 'run_if_skipped', 'output_variable'] as const;

const stepHeadFields = {
  id: identifier.optional().describe('Names the step in logs and events; defaults to the output variable or step_N.'),
  title: z.string().optional().describe('What the user sees in the live step list.'),
  tool: toolName.describe('A built-in tool, an llm_tools entry, or another action prompt by id.'),
  input: templateInput.optional().describe('A template string, or an object or list of templates.'),
  output_variable: identifier.optional(),
  condition: z.string().optional().describe('A safe expression over variables, e.g. "selected_files.length > 0".'),
  select: z.string().optional().describe('A JSONPath applied to the tool output, e.g. "$.files[*].path".'),
  retry: retrySchema.optional(),
};
const stepTailFields = {
  timeout: durationSchema.optional(),
  for_each: z.string().optional().describe('A template that yields a list; the step runs once per item.'),
  as: identifier.optional().describe('The name of the current item in a for_each step (default: item).'),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(32)
    .optional()
    .describe("Parallel items in a for_each step (default 4); the prompt's max_concurrency (default 4) still caps the whole run."),
  run_if_skipped: z
    .boolean()
    .optional()
    .describe('true: run even when a step whose output this one reads was skipped (the value is then null). Default false: skip too.'),
};

/** A tool_chain step whose fallback steps are `fallbackStep`. */
function stepWith(fallbackStep: z.ZodType<StepDefinition>) {
  const oneOrMany = z.union([fallbackStep, z.array(fallbackStep).min(1)]);
  return z.strictObject({
    ...stepHeadFields,
    on_error: z.union([z.enum(['abort', 'continue', 'fallback']), z.strictObject({ fallback: oneOrMany })]).optional(),
    fallback: oneOrMany.optional().describe('Steps to run instead when this one fails and on_error is fallback.'),
    ...stepTailFields,
  });
}

/**
 * The loader's step: a fallback step is parsed as a full step so that a misplaced key gets the loader's own message
 * ("a fallback step … does not take \"condition\"") rather than the schema's "unrecognized key".
 */
export const stepSchema: z.ZodType<StepDefinition> = z.lazy(() => stepWith(stepSchema));

/** The editor's fallback step: only the keys a fallback step takes. */
const omitInFallback = Object.fromEntries(NOT_IN_FALLBACK.map((key) => [key, true])) as Record<(typeof NOT_IN_FALLBACK)[number], true>;
const fallbackStepSchema: z.ZodType<StepDefinition> = stepWith(z.never()).omit(omitInFallback).meta({
  id: 'fallbackStep',
  description: "Runs once in place of the failed step, with its item scope; {error} is its error, and its output becomes the failed step's.",
});

function actionPromptWith(step: z.ZodType<StepDefinition>) {
  return z.strictObject({
    title: z.string().min(1),
    description: z.string().optional(),
    version: z.union([z.string(), z.number()]).optional(),
    input_variables: z.array(inputVariableSchema).default([]),
    llm_tools: z.array(llmToolSchema).default([]),
    tool_chain: z.array(step).default([]),
    llm_prompt_template: z.strictObject({ system: z.string().optional(), human: z.string() }).optional(),
    output: z
      .union([z.string(), z.record(z.string(), templateInput)])
      .optional()
      .describe('Without llm_prompt_template: the result, as a template or a mapping of templates (one field each); default: the last step output.'),
    models: z
      .strictObject({ main: z.string().optional(), tool: z.string().optional() })
      .optional()
      .describe('Override the configured main and tool model names for this prompt.'),
    max_concurrency: z
      .number()
      .int()
      .min(1)
      .max(32)
      .optional()
      .describe('Tool calls in flight at once across the whole run, for_each items included (default 4).'),
    agent_callable: z
      .boolean()
      .optional()
      .describe('true: the agent (codewiki ask, the chat) may call this prompt as a tool, its input_variables as arguments. Default false.'),
  });
}

/** What the loader validates. */
export const actionPromptSchema = actionPromptWith(stepSchema);

/** What editors are offered (schemas/action-prompt.schema.json, completion, hover): fallback steps narrowed. */
export const editorActionPromptSchema = actionPromptWith(stepWith(fallbackStepSchema));

export type ActionPromptDefinition = z.infer<typeof actionPromptSchema>;
export type InputVariable = z.infer<typeof inputVariableSchema>;
/** An `llm_tools` entry; its schema lives with the tool that runs it (tools/llmToolDefinition.ts). */
export type { LlmToolDefinition };
