import { z } from 'zod';

/**
 * The single definition of the agent-definition format (`.codewiki/agents/*.yaml` and the built-in
 * `agents/`). Strict: an unknown field is an error, so a file cannot carry settings CodeWiki
 * would silently ignore, and there is no field for approvals at all (security promise #8).
 */

const AGENT_INPUT_TYPES = ['string', 'number', 'integer', 'boolean', 'string[]', 'number[]'] as const;
export type AgentInputType = (typeof AGENT_INPUT_TYPES)[number];

/** OpenAI's limit for function names. */
const MAX_NAME_LENGTH = 64;
const MAX_AGENT_ITERATIONS = 30;

const agentName = z
  .string()
  .regex(/^[a-z0-9_]+$/, 'must be a tool name of lower-case letters, digits and _')
  .max(MAX_NAME_LENGTH, `must be at most ${MAX_NAME_LENGTH} characters (the limit for tool names)`);

const inputName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a name of letters, digits and _ that does not start with a digit');

const agentInputSchema = z.strictObject({
  name: inputName.describe('The argument the calling agent passes, and {name} in system.'),
  type: z.enum(AGENT_INPUT_TYPES).describe('string, number, integer, boolean, string[] or number[].'),
  description: z.string().min(1).describe('Sent to the model as the argument description: say what a good value is.'),
  required: z.boolean().default(true),
});

export const agentDefinitionSchema = z.strictObject({
  name: agentName.describe('The tool name the calling agent sees.'),
  description: z.string().min(1).describe('What the calling agent reads to decide when to call it.'),
  inputs: z.array(agentInputSchema).max(20).default([]),
  system: z.string().min(1).describe("The sub-agent's system prompt; may reference inputs as {name}."),
  tools: z.array(z.string().min(1)).max(50).default([]).describe('The tools it may call (an allow-list); nothing else is offered.'),
  model: z.string().min(1).optional().describe('"main" (default), "tool", or a model name on the configured endpoint.'),
  max_iterations: z.number().int().min(1).max(MAX_AGENT_ITERATIONS).optional().describe('Tool-calling turns before it must answer (default 10).'),
});

export type AgentDefinitionFile = z.infer<typeof agentDefinitionSchema>;
export type AgentInput = z.infer<typeof agentInputSchema>;
