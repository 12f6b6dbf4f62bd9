import { z } from 'zod';
import type { AgentToolCall, AgentTurnProgress, ChatMessage } from './conversationTypes';

/**
 * Messages reach the store from the webview and the agent runner, and come back from disk; both are
 * untrusted. Zod objects drop keys they do not declare, which is what keeps secrets out of history files:
 * a caller that passes an object carrying e.g. `apiKey` gets it silently stripped, never written.
 */

const id = z.string().min(1).max(200);
const timestamp = z.string().min(1).max(64);
const count = z.number().finite().nonnegative();

const userMessage = z.object({
  kind: z.literal('user'),
  id,
  createdAt: timestamp,
  text: z.string(),
});

const assistantMessage = z.object({
  kind: z.literal('assistant'),
  id,
  createdAt: timestamp,
  text: z.string(),
  status: z.enum(['streaming', 'done', 'stopped', 'error']),
  error: z.string().optional(),
  model: z.string().optional(),
  usage: z.object({ input: count, output: count, total: count }).optional(),
  durationMs: count.optional(),
  reasoning: z.string().optional(),
  condensedTurns: count.optional(),
});

const agentStep = z.object({
  id,
  title: z.string().optional(),
  tool: z.string(),
  status: z.enum(['pending', 'running', 'success', 'skipped', 'failed', 'cancelled']),
  durationMs: count.optional(),
  attempts: count.optional(),
  tokens: count.optional(),
  inputPreview: z.string().optional(),
  outputPreview: z.string().optional(),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
});

const agentRunMessage = z.object({
  kind: z.literal('prompt-run'),
  id,
  createdAt: timestamp,
  promptId: z.string(),
  promptTitle: z.string(),
  inputs: z.record(z.string(), z.unknown()),
  steps: z.array(agentStep),
  answer: z.string(),
  reasoning: z.string().optional(),
  status: z.enum(['running', 'done', 'stopped', 'error']),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  tokens: z.object({ input: count, output: count, total: count }).optional(),
  answerTokens: count.optional(),
  durationMs: count.optional(),
  context: z.object({ promptTokens: count, budgetTokens: count, serverContext: count.optional() }).optional(),
  runLogPath: z.string().optional(),
});

const tokenUsage = z.object({ input: count, output: count, total: count, cached: count.optional() });

const toolPreview = z.discriminatedUnion('type', [
  z.object({ type: z.literal('diff'), path: z.string(), action: z.enum(['create', 'replace', 'edit']), diff: z.string(), added: count, removed: count }),
  z.object({ type: z.literal('command'), command: z.string(), cwd: z.string(), timeoutMs: count }),
  z.object({ type: z.literal('arguments'), text: z.string() }),
]);

const agentToolCall = z.object({
  id,
  tool: z.string(),
  displayName: z.string(),
  kind: z.enum(['read', 'write', 'execute', 'think']).optional(),
  argsSummary: z.string(),
  args: z.unknown(),
  iteration: count,
  status: z.enum(['running', 'awaiting-approval', 'ok', 'error', 'denied', 'skipped', 'cancelled']),
  durationMs: count.optional(),
  tokens: tokenUsage.optional(),
  output: z.string().optional(),
  error: z.string().optional(),
  preview: toolPreview.optional(),
  approval: z
    .object({ decision: z.enum(['allow-once', 'allow-conversation', 'deny']), by: z.enum(['policy', 'conversation', 'user']), reason: z.string().optional() })
    .optional(),
  parentCallId: id.optional(),
});

const agentTurnMessage = z.object({
  kind: z.literal('agent-turn'),
  id,
  createdAt: timestamp,
  answer: z.string(),
  answerStart: count.int().optional(),
  status: z.enum(['streaming', 'done', 'stopped', 'error']),
  toolCalls: z.array(agentToolCall),
  reasoning: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  fallback: z.string().optional(),
  stopReason: z.enum(['answered', 'max-iterations', 'wall-clock', 'token-budget', 'repeated-call', 'cancelled', 'failed']).optional(),
  iterations: count.optional(),
  tokens: tokenUsage.optional(),
  model: z.string().optional(),
  error: z.string().optional(),
  context: z
    .array(
      z.object({
        kind: z.enum(['file', 'selection', 'codebase']),
        path: z.string(),
        startLine: count.optional(),
        endLine: count.optional(),
        truncated: z.boolean().optional(),
        files: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  mentions: z.array(z.string()).optional(),
  openFile: z.string().optional(),
  durationMs: count.optional(),
  firstTokenMs: count.optional(),
  contextTokens: count.optional(),
  contextWindow: count.optional(),
  definitions: z
    .array(
      z.object({
        name: z.string(),
        kind: z.string(),
        path: z.string(),
        line: count,
        signature: z.string(),
        container: z.string().optional(),
        doc: z.string().optional(),
        declaration: z.boolean().optional(),
      }),
    )
    .optional(),
  indexContext: z.object({ files: z.array(z.string()), tokens: count, partial: z.boolean().optional() }).optional(),
  instructions: z.array(z.object({ path: z.string(), tokens: count, truncated: z.boolean().optional() })).optional(),
  condensedTurns: count.optional(),
});

const agentTurnProgress = z.object({
  answerAdded: z.string().optional(),
  answerStart: count.int().optional(),
  reasoningAdded: z.string().optional(),
  warningsAdded: z.array(z.string()).optional(),
  tokens: tokenUsage.optional(),
  iterations: count.optional(),
  model: z.string().optional(),
  fallback: z.string().optional(),
});

const chatMessage = z.discriminatedUnion('kind', [userMessage, assistantMessage, agentRunMessage, agentTurnMessage]);

// Fails to compile if the schema and the hand-written types in conversationTypes.ts drift apart.
type Parsed = z.output<typeof chatMessage>;
const typesMatch: [Parsed] extends [ChatMessage] ? ([ChatMessage] extends [Parsed] ? true : false) : false = true;
void typesMatch;
type ParsedCall = z.output<typeof agentToolCall>;
const callTypesMatch: [ParsedCall] extends [AgentToolCall] ? ([AgentToolCall] extends [ParsedCall] ? true : false) : false = true;
void callTypesMatch;
type ParsedProgress = z.output<typeof agentTurnProgress>;
const progressTypesMatch: [ParsedProgress] extends [AgentTurnProgress] ? ([AgentTurnProgress] extends [ParsedProgress] ? true : false) : false = true;
void progressTypesMatch;

export class InvalidMessageError extends Error {
  override readonly name = 'InvalidMessageError';
}

/**
 * Returns a clean copy holding only the declared fields. Inputs of an agent run and tool-call arguments
 * of an agent turn are round-tripped through JSON so that what is kept in memory is exactly what a reopened store will return.
 */
export function parseChatMessage(value: unknown): ChatMessage {
  const message = parseOrThrow(chatMessage, withCurrentKind(value), 'chat message');
  if (message.kind === 'prompt-run') message.inputs = JSON.parse(JSON.stringify(message.inputs)) as Record<string, unknown>;
  if (message.kind === 'agent-turn') for (const call of message.toolCalls) call.args = jsonCopy(call.args);
  return message;
}

/**
 * Read alias: a run of an action prompt was saved as `agent-run` until "agent" came to mean the tool loop
 * only. Conversations saved before that still load, as `prompt-run`; nothing is ever written the old way.
 */
function withCurrentKind(value: unknown): unknown {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'agent-run' ? { ...(value as object), kind: 'prompt-run' } : value;
}

/** One tool call of an agent turn (an `agent-call` record), cleaned the same way as a whole turn's calls. */
export function parseAgentToolCall(value: unknown): AgentToolCall {
  const call = parseOrThrow(agentToolCall, value, 'tool call');
  call.args = jsonCopy(call.args);
  return call;
}

export function parseAgentTurnProgress(value: unknown): AgentTurnProgress {
  return parseOrThrow(agentTurnProgress, value, 'turn progress');
}

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  throw new InvalidMessageError(`Invalid ${what}${where}: ${issue?.message ?? 'unknown problem'}`);
}

/** `undefined` (which JSON cannot hold) becomes null, so a saved and a reloaded call look the same. */
function jsonCopy(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? null : (JSON.parse(text) as unknown);
}
