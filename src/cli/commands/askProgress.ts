import type { AgentEvent } from '../../core/agent';
import type { CodeIndex } from '../../core/codebaseIndex/codeIndexTypes';
import { kindLabel } from '../../core/codebaseIndex/tools/renderIndexResults';
import { formatMs } from '../../core/util/cancellation';
import { count, describeIndex, showIndexProgress } from './indexProgress';

const MARK = { ok: '✓', error: '✗', denied: '⊘', skipped: '↷' } as const;

/**
 * `codewiki ask` progress on stderr: the index (building, what it gave the model, and the definitions the
 * question names, printed first, before the model says anything), one line per tool call when it ends,
 * warnings, and the fallback.
 */
export class AgentProgress {
  private readonly summaries = new Map<string, string>();
  /** The tool of each call, by id: a sub-agent's events name the call that started it. */
  private readonly tools = new Map<string, string>();
  private toolCalls = 0;
  /** The model is thinking in this model call; said once per call, its text never printed. */
  private thinking = false;
  private stopIndexProgress: (() => void) | undefined;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly index?: CodeIndex,
    /** `--verbose`: a line per model call with its prompt, cached and generated tokens and its speed. */
    private readonly verbose = false,
  ) {}

  handle(event: AgentEvent): void {
    if (event.parentCallId) return this.nested(event, event.parentCallId);
    switch (event.type) {
      case 'index-wait':
        if (!this.stopIndexProgress && this.index) {
          this.line(event.indexedFiles ? `indexing the workspace (${count(event.indexedFiles)} files so far)…` : 'indexing the workspace…');
          this.stopIndexProgress = showIndexProgress(this.index, this.out);
        }
        return;
      case 'definitions':
        this.endIndexProgress();
        for (const d of event.definitions)
          this.line(`◆ ${d.container ? `${d.container}.` : ''}${d.name} (${kindLabel(d)}) — ${d.path}:${d.line}  ${d.signature}`);
        return;
      case 'instructions':
        return this.line(
          `⚑ project instructions: ${event.files.map((f) => `${f.path} (${count(f.tokens)} tokens${f.truncated ? ', cut to fit' : ''})`).join(', ')}`,
        );
      case 'index-context':
        this.endIndexProgress();
        return this.line(
          `⌕ index: ${event.files.length} candidate file${event.files.length === 1 ? '' : 's'} (${count(event.tokens)} tokens) sent with the question${event.partial ? ', from a partial index' : ''}`,
        );
      case 'tool-call-start':
        this.summaries.set(event.id, event.argsSummary);
        this.tools.set(event.id, event.tool);
        return;
      case 'tool-call-end': {
        this.toolCalls++;
        const args = this.summaries.get(event.id);
        this.summaries.delete(event.id);
        const head = `${MARK[event.status]} ${event.tool}${args ? ` ${args}` : ''}`;
        const detail =
          event.status === 'ok'
            ? ` (${formatMs(event.durationMs)}${event.tokens.total ? `, ${event.tokens.total.toLocaleString('en-US')} tokens` : ''})`
            : event.status === 'denied'
              ? ' — denied'
              : ` — ${firstLine(event.error ?? event.output)}`;
        return this.line(`${head}${detail}`);
      }
      case 'reasoning':
        if (!this.thinking) this.line('… thinking (not printed: stdout carries the answer only)');
        this.thinking = true;
        return;
      case 'turn-end':
        this.thinking = false;
        if (this.verbose) this.line(describeModelCall(event));
        return;
      case 'warning':
        return this.line(`! ${event.message}`);
      case 'protocol-switch':
        return this.line(`! switched to the text tool protocol: ${event.reason}`);
      case 'fallback':
        return this.line(`! no tool calling: ${event.reason}; planning tool use in a separate step`);
      case 'done':
        return this.line(describeRun(event, this.toolCalls));
      default:
        return;
    }
  }

  /**
   * A sub-agent's events: its tool calls end in the parent's line for the call; with `--verbose` its model calls
   * are said too, under the call that started it, since a sub-agent's prompt is paid for like the parent's.
   */
  private nested(event: AgentEvent, parentCallId: string): void {
    if (!this.verbose || event.type !== 'turn-end') return;
    this.line(`  ↳ ${this.tools.get(parentCallId) ?? 'sub-agent'}: ${describeModelCall(event).replace(/^· /, '')}`);
  }

  /** Clears a progress line left on the terminal. */
  end(): void {
    this.endIndexProgress();
  }

  private endIndexProgress(): void {
    if (!this.stopIndexProgress) return;
    this.stopIndexProgress();
    this.stopIndexProgress = undefined;
    if (this.index?.status().state === 'ready') this.line(`indexed: ${describeIndex(this.index.status())}`);
  }

  private line(text: string): void {
    this.out.write(`${text.replace(/\s*\n\s*/g, ' ')}\n`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** `· model call 1: 2,310 prompt tokens (2,280 cached), 41 generated; first token 1.9 s; prompt 61 tokens/s, generation 9.8 tokens/s`. */
export function describeModelCall(event: Extract<AgentEvent, { type: 'turn-end' }>): string {
  const { tokens, server } = event;
  const cached = tokens.cached !== undefined ? ` (${tokens.cached.toLocaleString('en-US')} cached)` : '';
  const parts = [
    `· model call ${event.iteration}: ${tokens.input.toLocaleString('en-US')} prompt tokens${cached}, ${tokens.output.toLocaleString('en-US')} generated`,
  ];
  if (event.firstTokenMs !== undefined) parts.push(`first token ${formatMs(event.firstTokenMs)}`);
  parts.push(`${formatMs(event.durationMs)} in all`);
  if (server) {
    const rate = (n: number, ms: number) => (ms > 0 ? `${(n / (ms / 1000)).toFixed(1)} tokens/s` : '—');
    parts.push(
      `prompt ${server.evaluatedTokens.toLocaleString('en-US')} computed at ${rate(server.evaluatedTokens, server.promptMs)}, generation ${rate(server.generatedTokens, server.generatedMs)}`,
    );
  }
  return parts.join('; ');
}

/** The last line of `codewiki ask`: `■ answered · 2 tool calls · 2,128 tokens (1,900 cached) · 3.4 s`. */
export function describeRun(event: Extract<AgentEvent, { type: 'done' }>, toolCalls: number): string {
  const { tokens } = event;
  const cached = tokens.cached ? ` (${tokens.cached.toLocaleString('en-US')} cached)` : '';
  return `■ ${event.stopReason} · ${toolCalls} tool call${toolCalls === 1 ? '' : 's'} · ${tokens.total.toLocaleString('en-US')} tokens${cached} · ${formatMs(event.durationMs)}`;
}
