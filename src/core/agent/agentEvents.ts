import type { SymbolDef } from '../codebaseIndex/codeIndexTypes';
import type { ServerTimings } from '../llm/serverTimings';
import type { TokenUsage } from '../llm/usage';
import type { ToolKind } from '../tools/toolMetadata';
import type { ToolPreview } from '../tools/workspace-write/toolPreview';

/** Why the loop ended. Every value but `answered` means the answer (if any) says so. */
export type AgentStopReason = 'answered' | 'max-iterations' | 'wall-clock' | 'token-budget' | 'repeated-call' | 'cancelled' | 'failed';

/**
 * ok: the tool ran. error: it failed, or the call itself was bad (arguments, unknown tool); the
 * model was told why. denied: approval was refused and the tool never ran. skipped: not run
 * because the loop was stopping.
 */
export type ToolCallStatus = 'ok' | 'error' | 'denied' | 'skipped';

/** Who settled an approval: nobody needed to (read/think), the user's policy, an earlier "allow in this conversation", or the user now. */
export type ApprovalSource = 'policy' | 'conversation' | 'user';

/** The user's answer to an approval request (approvalGate.ts asks; the events carry it). */
export type ApprovalDecisionKind = 'allow-once' | 'allow-conversation' | 'deny';

/**
 * Everything the UI, the CLI, logs and history learn about an agent run, in order. Calls of one
 * turn that run concurrently interleave; each event carries the call id. A sub-agent's events
 * will carry `parentCallId`, the id of the call that started it, so a UI can nest them.
 */
export type AgentEvent = AgentEventBody & { parentCallId?: string };

export type AgentEventBody =
  | { type: 'run-start'; conversationId: string; model: string; tools: string[]; question: string }
  /** The code index is still building; the question waits for it (with these counts) before the first model call. */
  | { type: 'index-wait'; indexedFiles: number; totalFiles: number }
  /** Definitions named exactly in the question, from the index, before the model has said anything. */
  | { type: 'definitions'; definitions: DefinitionCard[] }
  /** What the index gave the model with the question: these files, this many tokens; `partial` while it was still building. */
  | { type: 'index-context'; files: string[]; tokens: number; partial: boolean }
  /** The project's instruction files (AGENTS.md, .codewiki/instructions.md) the system prompt carries this run. */
  | { type: 'instructions'; files: Array<{ path: string; tokens: number; truncated: boolean }> }
  | { type: 'turn-start'; iteration: number; toolChoice?: string; withTools: boolean }
  /** `firstTokenMs`: from the request to the first token; `server`: llama-server's own timings of the call (cached prompt tokens among them). */
  | {
      type: 'turn-end';
      iteration: number;
      finishReason?: string;
      toolCalls: number;
      tokens: TokenUsage;
      durationMs: number;
      firstTokenMs?: number;
      server?: ServerTimings;
    }
  | { type: 'tool-call-start'; id: string; iteration: number; tool: string; displayName: string; kind?: ToolKind; argsSummary: string; args: unknown }
  | { type: 'approval-requested'; id: string; tool: string; kind: ToolKind; preview: ToolPreview; why: string }
  | { type: 'approval-decided'; id: string; tool: string; decision: ApprovalDecisionKind; by: ApprovalSource; reason?: string }
  | {
      type: 'tool-call-end';
      id: string;
      iteration: number;
      tool: string;
      status: ToolCallStatus;
      durationMs: number;
      tokens: TokenUsage;
      output: string;
      error?: string;
    }
  /** Answer text as it streams. `iteration` tells a UI which turn it belongs to (text before tool calls is narration). */
  | { type: 'token'; text: string; iteration: number }
  /** A reasoning model's thinking (`<think>…</think>` or `reasoning_content`), kept out of the answer. */
  | { type: 'reasoning'; text: string; iteration: number }
  | { type: 'warning'; message: string }
  /**
   * The answer so far was sent back (a check asked the model again, with a warning saying why): the text that follows
   * replaces it. What streamed stays, shown as sent back; `done.answer` is the new answer alone.
   */
  | { type: 'answer-restart' }
  /** The server refused tool definitions; the run continues with the plan-then-answer runner. */
  | { type: 'fallback'; reason: string }
  /** `toolProtocol: auto` moved to the text tool protocol for the rest of the conversation (remembered per model and endpoint). */
  | { type: 'protocol-switch'; from: 'native'; to: 'text'; reason: string }
  | { type: 'done'; answer: string; stopReason: AgentStopReason; iterations: number; tokens: TokenUsage; durationMs: number; error?: string };

export type AgentEventListener = (event: AgentEvent) => void;

/** A definition the question names exactly, shown to the user as soon as the index finds it. */
export type DefinitionCard = Pick<SymbolDef, 'name' | 'kind' | 'line' | 'signature' | 'doc' | 'container' | 'declaration'> & { path: string };
