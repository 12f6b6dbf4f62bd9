import type { ServerTimings } from '../llm/serverTimings';
import { addUsage, ZERO_USAGE, type TokenUsage } from '../llm/usage';
import type { ToolPreview } from '../tools/workspace-write/toolPreview';
import type { AgentEvent, AgentStopReason, ApprovalDecisionKind, ApprovalSource, ToolCallStatus } from './agentEvents';

export interface AgentToolCallRecord {
  id: string;
  tool: string;
  args: unknown;
  status: ToolCallStatus | 'running';
  durationMs?: number;
  tokens?: TokenUsage;
  /** Size-capped, as in the tool-call-end event. */
  output?: string;
  error?: string;
  approval?: { decision: ApprovalDecisionKind; by: ApprovalSource; reason?: string; preview?: ToolPreview };
}

export interface AgentIterationRecord {
  iteration: number;
  withTools: boolean;
  toolChoice?: string;
  /** The visible text of the turn (narration before tool calls, or the answer). */
  text: string;
  reasoning?: string;
  finishReason?: string;
  durationMs?: number;
  tokens?: TokenUsage;
  /** From the request to the model's first token. */
  firstTokenMs?: number;
  /** llama-server's timings of the call: prompt tokens computed and cached, time per phase. */
  server?: ServerTimings;
  toolCalls: AgentToolCallRecord[];
}

/**
 * One agent run as `codewiki ask --log` writes it and as history can store it: every iteration,
 * every tool call with its arguments, approval, status, duration and tokens, and the outcome.
 * Built from the events alone, so whatever a UI saw is exactly what the log says.
 */
export interface AgentRunLog {
  version: 1;
  conversationId?: string;
  model?: string;
  question?: string;
  tools: string[];
  startedAt: string;
  durationMs?: number;
  stopReason?: AgentStopReason;
  iterations: AgentIterationRecord[];
  /** Calls made outside a model turn (the plan-then-answer fallback). */
  fallback?: { reason: string };
  /** `toolProtocol: auto` switched to the text tool protocol during this run. */
  protocolSwitch?: { to: 'text'; reason: string };
  answer?: string;
  error?: string;
  warnings: string[];
  tokens: TokenUsage;
}

export class AgentRunRecorder {
  readonly log: AgentRunLog = { version: 1, tools: [], startedAt: new Date().toISOString(), iterations: [], warnings: [], tokens: { ...ZERO_USAGE } };
  private readonly calls = new Map<string, AgentToolCallRecord>();
  private readonly previews = new Map<string, ToolPreview>();

  /** `parentCallId`: set when recording a sub-agent's own run, whose events all carry it. */
  constructor(private readonly parentCallId?: string) {}

  handle(event: AgentEvent): void {
    if (event.parentCallId !== this.parentCallId) return; // a nested sub-agent's events belong to its own log
    const log = this.log;
    switch (event.type) {
      case 'run-start':
        Object.assign(log, { conversationId: event.conversationId, model: event.model, question: event.question, tools: event.tools });
        return;
      case 'turn-start':
        log.iterations.push({ iteration: event.iteration, withTools: event.withTools, toolChoice: event.toolChoice, text: '', toolCalls: [] });
        return;
      case 'token': {
        const turn = this.iteration(event.iteration);
        if (turn) turn.text += event.text;
        return;
      }
      case 'reasoning': {
        const turn = this.iteration(event.iteration);
        if (turn) turn.reasoning = (turn.reasoning ?? '') + event.text;
        return;
      }
      case 'turn-end': {
        const turn = this.iteration(event.iteration);
        if (turn) {
          Object.assign(turn, { finishReason: event.finishReason, durationMs: round(event.durationMs), tokens: event.tokens });
          if (event.firstTokenMs !== undefined) turn.firstTokenMs = round(event.firstTokenMs);
          if (event.server) turn.server = event.server;
        }
        log.tokens = addUsage(log.tokens, event.tokens);
        return;
      }
      case 'tool-call-start': {
        const record: AgentToolCallRecord = { id: event.id, tool: event.tool, args: event.args, status: 'running' };
        this.calls.set(event.id, record);
        (this.iteration(event.iteration) ?? this.fallbackTurn(event.iteration)).toolCalls.push(record);
        return;
      }
      case 'approval-requested':
        this.previews.set(event.id, event.preview);
        return;
      case 'approval-decided': {
        const record = this.calls.get(event.id);
        if (record) record.approval = { decision: event.decision, by: event.by, reason: event.reason, preview: this.previews.get(event.id) };
        return;
      }
      case 'tool-call-end': {
        const record = this.calls.get(event.id);
        if (record)
          Object.assign(record, { status: event.status, durationMs: round(event.durationMs), tokens: event.tokens, output: event.output, error: event.error });
        log.tokens = addUsage(log.tokens, event.tokens);
        return;
      }
      case 'warning':
        log.warnings.push(event.message);
        return;
      case 'fallback':
        log.fallback = { reason: event.reason };
        return;
      case 'protocol-switch':
        log.protocolSwitch = { to: event.to, reason: event.reason };
        return;
      case 'done':
        Object.assign(log, { answer: event.answer, stopReason: event.stopReason, durationMs: round(event.durationMs), error: event.error });
        return;
    }
  }

  private iteration(iteration: number): AgentIterationRecord | undefined {
    const last = this.log.iterations.at(-1);
    return last?.iteration === iteration ? last : this.log.iterations.find((turn) => turn.iteration === iteration);
  }

  /** Tool calls the fallback planner made, which have no model turn of their own. */
  private fallbackTurn(iteration: number): AgentIterationRecord {
    const turn: AgentIterationRecord = { iteration, withTools: false, text: '', toolCalls: [] };
    this.log.iterations.push(turn);
    return turn;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
