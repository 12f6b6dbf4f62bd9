import type { AgentEvent } from '../agent/agentEvents';
import type { AgentToolCall, AgentToolPreview, AgentTurnMessage } from '../history/conversationTypes';
import { addUsage } from '../llm/usage';
import type { ToolPreview } from '../tools/workspace-write/toolPreview';
import type { SessionListener } from './sessionEvents';
import { reasoningThatFits } from './reasoningCap';

/** What history keeps of one tool call: enough to read what happened, not a copy of every file read. */
export const TOOL_OUTPUT_MAX_CHARS = 8 * 1024;
export const ARGUMENT_TEXT_MAX_CHARS = 4 * 1024;
export const PREVIEW_MAX_CHARS = 8 * 1024;

// The agent's previews and the history's record of them must stay the same shape.
const previewFits: ToolPreview extends AgentToolPreview ? true : false = true;
void previewFits;

/**
 * Turns the agent's events into the AgentTurnMessage the user sees and history keeps, and posts
 * each change to the webview as it happens. `onCallSaved` is called when a tool call starts, waits
 * for approval and ends: the moments worth saving it (a crash after the end keeps the call; one
 * before shows it as cancelled). Sub-agent events (`parentCallId`) contribute their tool calls and
 * warnings, never their text to the answer.
 */
export class AgentTurnRecorder {
  private readonly calls = new Map<string, AgentToolCall>();

  constructor(
    readonly turn: AgentTurnMessage,
    private readonly post: SessionListener,
    private readonly onCallSaved: (call: AgentToolCall) => void,
    /** When the user sent the question (performance.now()), for the time to the first token. */
    private readonly startedAt = performance.now(),
  ) {}

  private noteFirstToken(): void {
    this.turn.firstTokenMs ??= Math.round(performance.now() - this.startedAt);
  }

  handle(event: AgentEvent): void {
    const turnId = this.turn.id;
    const nested = event.parentCallId !== undefined;
    switch (event.type) {
      case 'run-start':
        if (!nested) this.turn.model = event.model;
        return;
      case 'turn-end':
        if (nested) return;
        this.turn.iterations = Math.max(this.turn.iterations ?? 0, event.iteration);
        this.turn.tokens = addUsage(this.turn.tokens ?? { input: 0, output: 0, total: 0 }, event.tokens);
        this.turn.contextTokens = event.tokens.input;
        return this.post({
          type: 'agentTurn/usage',
          turnId,
          iterations: this.turn.iterations,
          tokens: { ...this.turn.tokens },
          contextTokens: event.tokens.input,
        });
      case 'tool-call-start': {
        const call: AgentToolCall = {
          id: event.id,
          tool: event.tool,
          displayName: event.displayName,
          ...(event.kind ? { kind: event.kind } : {}),
          argsSummary: event.argsSummary,
          args: capArguments(event.args),
          iteration: event.iteration,
          status: 'running',
          ...(nested ? { parentCallId: event.parentCallId } : {}),
        };
        this.calls.set(callKey(event.id, event.parentCallId), call);
        this.turn.toolCalls.push(call);
        this.postCall(call);
        return this.onCallSaved(call);
      }
      case 'approval-requested': {
        const call = this.updateCall(event.id, event.parentCallId, (c) =>
          Object.assign(c, { status: 'awaiting-approval', preview: capPreview(event.preview, PREVIEW_MAX_CHARS) }),
        );
        return call && this.onCallSaved(call);
      }
      case 'approval-decided':
        this.updateCall(event.id, event.parentCallId, (call) => {
          call.approval = { decision: event.decision, by: event.by, ...(event.reason ? { reason: event.reason } : {}) };
          if (call.status === 'awaiting-approval') call.status = 'running';
        });
        return;
      case 'tool-call-end': {
        if (!nested) this.turn.tokens = addUsage(this.turn.tokens ?? { input: 0, output: 0, total: 0 }, event.tokens);
        const call = this.updateCall(event.id, event.parentCallId, (c) =>
          Object.assign(c, {
            status: event.status,
            durationMs: Math.round(event.durationMs),
            tokens: event.tokens,
            output: capText(event.output, TOOL_OUTPUT_MAX_CHARS),
            ...(event.error ? { error: capText(event.error, TOOL_OUTPUT_MAX_CHARS) } : {}),
          }),
        );
        return call && this.onCallSaved(call);
      }
      case 'token':
        if (nested) return;
        this.noteFirstToken();
        this.turn.answer += event.text;
        return this.post({ type: 'agentTurn/chunk', turnId, text: event.text });
      case 'reasoning': {
        if (nested) return;
        this.noteFirstToken();
        const text = reasoningThatFits(this.turn.reasoning, event.text);
        if (!text) return;
        this.turn.reasoning = (this.turn.reasoning ?? '') + text;
        return this.post({ type: 'agentTurn/reasoning', turnId, text });
      }
      case 'answer-restart':
        // Nothing written since the last restart (an empty answer asked for again): nothing to fold away.
        if (nested || !this.turn.answer.slice(this.turn.answerStart ?? 0).trim()) return;
        this.turn.answerStart = this.turn.answer.length;
        return this.post({ type: 'agentTurn/answerRestart', turnId, at: this.turn.answerStart });
      case 'warning': {
        const message = nested ? `(sub-agent) ${event.message}` : event.message;
        (this.turn.warnings ??= []).push(message);
        return this.post({ type: 'agentTurn/warning', turnId, message });
      }
      case 'protocol-switch': {
        // Shown as a notice in the chat, kept with the turn's warnings in history.
        if (nested) return;
        const message = `Switched to the text tool protocol for this model: ${event.reason}`;
        (this.turn.warnings ??= []).push(message);
        return this.post({ type: 'agentTurn/warning', turnId, message });
      }
      case 'definitions':
        if (nested) return;
        this.turn.definitions = event.definitions.map((d) => ({ ...d }));
        return this.post({ type: 'agentTurn/definitions', turnId, definitions: this.turn.definitions.map((d) => ({ ...d })) });
      case 'instructions':
        if (nested) return;
        this.turn.instructions = event.files.map(({ path, tokens, truncated }) => ({ path, tokens, ...(truncated ? { truncated } : {}) }));
        return this.post({ type: 'agentTurn/instructions', turnId, instructions: this.turn.instructions.map((r) => ({ ...r })) });
      case 'index-context':
        if (nested) return;
        this.turn.indexContext = { files: [...event.files], tokens: event.tokens, ...(event.partial ? { partial: true } : {}) };
        return this.post({ type: 'agentTurn/indexContext', turnId, context: { ...this.turn.indexContext } });
      case 'index-wait':
        if (nested) return;
        return this.post({ type: 'agentTurn/indexWait', turnId, indexedFiles: event.indexedFiles, totalFiles: event.totalFiles });
      case 'fallback':
        if (nested) return;
        this.turn.fallback = event.reason;
        return this.post({ type: 'agentTurn/fallback', turnId, reason: event.reason });
      case 'done':
        if (nested) return;
        // The answer as the run ends it (calls written as text taken out), after what was sent back, if anything was.
        Object.assign(this.turn, {
          answer: this.turn.answerStart === undefined ? event.answer : `${this.turn.answer.slice(0, this.turn.answerStart)}\n\n${event.answer}`,
          stopReason: event.stopReason,
          iterations: event.iterations,
          tokens: event.tokens,
        });
        if (event.error) this.turn.error = event.error;
        return;
      default:
        return;
    }
  }

  /** Calls the turn's end left unfinished (Stop, a crash of the loop) are marked cancelled. */
  cancelUnfinished(): void {
    for (const call of this.turn.toolCalls) {
      if (call.status === 'running' || call.status === 'awaiting-approval') {
        call.status = 'cancelled';
        this.postCall(call);
      }
    }
  }

  private updateCall(id: string, parentCallId: string | undefined, change: (call: AgentToolCall) => void): AgentToolCall | undefined {
    const call = this.calls.get(callKey(id, parentCallId));
    if (!call) return undefined;
    change(call);
    this.postCall(call);
    return call;
  }

  private postCall(call: AgentToolCall): void {
    this.post({ type: 'agentTurn/toolCall', turnId: this.turn.id, call: structuredClone(call) });
  }
}

function callKey(id: string, parentCallId: string | undefined): string {
  return `${parentCallId ?? ''}\u0000${id}`;
}

/** Cuts `text` with a marker saying how long it was. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n… [cut by CodeWiki: ${text.length.toLocaleString('en-US')} characters in all]`;
}

export function capPreview(preview: ToolPreview, maxChars: number): AgentToolPreview {
  if (preview.type === 'diff') return { ...preview, diff: capText(preview.diff, maxChars) };
  if (preview.type === 'arguments') return { ...preview, text: capText(preview.text, maxChars) };
  return { ...preview, command: capText(preview.command, maxChars) };
}

/** Arguments as JSON with long strings cut (a write_file `content` can be a whole file). */
export function capArguments(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return capText(value, ARGUMENT_TEXT_MAX_CHARS);
  if (value === null || typeof value !== 'object') return value ?? null;
  if (depth > 20) return '…';
  if (Array.isArray(value)) return value.map((item) => capArguments(item, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, capArguments(item, depth + 1)]));
}
