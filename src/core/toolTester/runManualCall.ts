import type { AgentEvent, AgentEventBody, ToolCallStatus } from '../agent/agentEvents';
import type { AgentToolSet } from '../agent/agentToolSet';
import type { ToolApprovals } from '../agent/approvalGate';
import { runToolCalls } from '../agent/toolCallRunner';
import type { ParsedToolCall } from '../agent/toolCallParsing';

export interface ManualRunDependencies {
  tools: AgentToolSet;
  /** Built with the user's gate and policy, as for the agent: write and execute calls still ask. */
  approvals: ToolApprovals;
  signal?: AbortSignal;
  /** Extra `configurable` entries for tools (e.g. agent-callable action prompts need the engine's). */
  configurable?: Record<string, unknown>;
  /** Approvals remembered "for this conversation" are kept under this id. */
  conversationId?: string;
}

export interface ManualRunResult {
  status: ToolCallStatus;
  /** What the model would be sent, uncut. */
  content: string;
  durationMs: number;
  /** The agent events of the call (start, approval, end), as the chat view would get them. */
  events: AgentEvent[];
}

/** Tool results are not cut here: the tester shows what the tool returned. */
const UNCUT = Number.MAX_SAFE_INTEGER;

/**
 * Runs one call pasted into the tool tester through the agent's own runner: the same lookup,
 * schema validation, approval (the user's gate and policy) and deadline as in an agent run.
 */
export async function runManualCall(call: ParsedToolCall, deps: ManualRunDependencies): Promise<ManualRunResult> {
  const events: AgentEvent[] = [];
  const [result] = await runToolCalls([call], 0, {
    tools: deps.tools,
    approvals: deps.approvals,
    conversationId: deps.conversationId ?? 'tool-tester',
    emit: (event: AgentEventBody) => void events.push(event as AgentEvent),
    signal: deps.signal ?? new AbortController().signal,
    maxResultChars: UNCUT,
    maxEventOutputChars: 4_000,
    concurrency: 1,
    configurable: deps.configurable,
  });
  return { status: result!.status, content: result!.content, durationMs: result!.durationMs, events };
}
