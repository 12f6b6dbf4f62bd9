import { formatMs } from '../core/util/cancellation';
import type { ExecutorEvent } from '../core/engine/executorEvents';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Step progress on stderr, so stdout carries only the answer and can be piped. One line per
 * finished step; on a TTY a spinner names the steps still running, cleared before each line.
 */
export class ProgressReporter {
  private readonly running = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  /** The final answer's thinking started; said once, its text never printed. */
  private thinking = false;

  constructor(
    private readonly out: NodeJS.WriteStream,
    private readonly interactive = Boolean(out.isTTY),
  ) {}

  handle(event: ExecutorEvent): void {
    switch (event.type) {
      case 'chain-start':
        this.line(`▶ ${event.title}${event.dryRun ? ' (dry run: no model is called)' : ''} — ${event.steps.length} step${event.steps.length === 1 ? '' : 's'}`);
        return this.startSpinner();
      case 'tool-start':
        if (event.attempt === 1 && event.item === undefined) this.running.set(event.stepId, event.tool);
        return;
      case 'tool-retry':
        return this.line(`↻ ${event.stepId}: attempt ${event.attempt} failed (${event.error}); retrying in ${formatMs(event.delayMs)}`);
      case 'tool-end': {
        this.running.delete(event.stepId);
        this.line(
          `✓ ${event.stepId} (${event.tool}) ${formatMs(event.durationMs)}${tokens(event.tokens.total)}${event.attempts > 1 ? `, ${event.attempts} attempts` : ''}`,
        );
        const cut = cutNotice(event.outputPreview);
        return cut ? this.line(`  ✂ ${cut}`) : undefined;
      }
      case 'tool-error':
        this.running.delete(event.stepId);
        return this.line(
          `✗ ${event.stepId} (${event.tool}) failed after ${formatMs(event.durationMs)}: ${event.error}${event.handling === 'abort' ? '' : ` [${event.handling}]`}`,
        );
      case 'step-skipped':
        return this.line(`↷ ${event.stepId} skipped: ${event.reason}`);
      case 'step-cancelled':
        this.running.delete(event.stepId);
        return this.line(`■ ${event.stepId} cancelled`);
      case 'warning':
        return this.line(`! ${event.message}`);
      case 'llm-start':
        this.stopSpinner();
        return this.line(`… answering with ${event.model}`);
      case 'llm-reasoning':
        if (!this.thinking) this.line('… thinking (not printed: stdout carries the answer only)');
        this.thinking = true;
        return;
      case 'llm-end':
        return this.line(`\n✓ answer ${formatMs(event.durationMs)}${tokens(event.tokens.total)}`);
      case 'chain-end':
        this.stopSpinner();
        return this.line(
          `${event.status === 'success' ? '■ done' : event.status === 'cancelled' ? '■ cancelled' : '✗ failed'} in ${formatMs(event.durationMs)}${tokens(event.tokens.total)}${event.error && event.status === 'failed' ? `: ${event.error}` : ''}`,
        );
      default:
        return;
    }
  }

  stop(): void {
    this.stopSpinner();
  }

  private line(text: string): void {
    this.clearSpinner();
    this.out.write(`${text}\n`);
  }

  private startSpinner(): void {
    if (!this.interactive || this.timer) return;
    this.timer = setInterval(() => {
      if (!this.running.size) return this.clearSpinner();
      this.out.write(`\r\x1b[2K${SPINNER[this.frame++ % SPINNER.length]} ${[...this.running.keys()].join(', ')}`);
    }, 100);
    this.timer.unref();
  }

  private stopSpinner(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clearSpinner();
  }

  private clearSpinner(): void {
    if (this.interactive) this.out.write('\r\x1b[2K');
  }
}

/**
 * The file tools state every cap in their text ("2 of 12 files shown", "… more entries exist");
 * repeating that line under the step tells the user a list was cut before the prompt shows it.
 */
function cutNotice(preview: string): string | undefined {
  const line = preview.split('\n').find((l) => /\(\d[\d,]* of \d[\d,]* files shown\)|^\s*… more \w+ exist|more matches exist/.test(l));
  return line?.trim();
}

function tokens(total: number): string {
  return total ? `, ${total.toLocaleString('en-US')} tokens` : '';
}
