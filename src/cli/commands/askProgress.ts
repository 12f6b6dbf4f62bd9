import type { AgentEvent } from '../../core/agent';
import { formatMs } from '../../core/engine/abort';

const MARK = { ok: '✓', error: '✗', denied: '⊘', skipped: '↷' } as const;

/** `codewiki ask` progress on stderr: one line per tool call when it ends, warnings, and the fallback. */
export class AgentProgress {
  private readonly summaries = new Map<string, string>();

  constructor(private readonly out: NodeJS.WriteStream) {}

  handle(event: AgentEvent): void {
    if (event.parentCallId) return;
    switch (event.type) {
      case 'tool-call-start':
        this.summaries.set(event.id, event.argsSummary);
        return;
      case 'tool-call-end': {
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
      case 'warning':
        return this.line(`! ${event.message}`);
      case 'protocol-switch':
        return this.line(`! switched to the text tool protocol: ${event.reason}`);
      case 'fallback':
        return this.line(`! no tool calling: ${event.reason}; planning tool use in a separate step`);
      default:
        return;
    }
  }

  private line(text: string): void {
    this.out.write(`${text.replace(/\s*\n\s*/g, ' ')}\n`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
