import { z } from 'zod';

/**
 * An LLM tool declared in an action prompt's `llm_tools` section. The tool that runs it (tools/llm/yamlLlmTool.ts)
 * lives here among the capabilities, so its definition does too; actionPrompt/actionPromptSchema.ts puts it in
 * the one schema of the action-prompt format, from which the JSON Schema for editors is built.
 */

/** A name templates use: `{name}`. */
export const identifierSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a name of letters, digits and _ that does not start with a digit');

export const toolNameSchema = z.string().regex(/^[A-Za-z0-9_-]+$/, 'must be a tool name of letters, digits, _ and -');

const llmToolParameterSchema = z.strictObject({
  name: identifierSchema,
  description: z.string().optional(),
  type: z.enum(['string', 'number', 'boolean', 'array', 'object']).default('string'),
  required: z.boolean().default(true),
});

export const llmToolSchema = z.strictObject({
  name: toolNameSchema,
  description: z.string().min(1),
  parameters: z.array(llmToolParameterSchema).default([]),
  system: z.string().optional(),
  human: z.string(),
  output: z.enum(['text', 'list', 'json']).default('text'),
  schema: z.record(z.string(), z.unknown()).optional().describe('JSON Schema the json output must satisfy.'),
  model: z.string().optional().describe('"tool" (default), "main", or a model name.'),
  max_tokens: z
    .number()
    .int()
    .min(16)
    .max(32_768)
    .optional()
    .describe('Stop the answer after about this many tokens and keep what came (a small model can repeat itself for minutes).'),
});

export type LlmToolDefinition = z.infer<typeof llmToolSchema>;
