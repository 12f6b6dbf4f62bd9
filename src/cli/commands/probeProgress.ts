import type { FetchFn } from '../../core/llm/resilientFetch';

/**
 * Progress of `codewiki probe` on stderr. A local model can take a minute per answer, so the user is
 * told which half of the probe is waiting, and about each retry. probeServer reports nothing while it
 * runs; this sits under its transport instead (ProbeOptions.tuning.fetch), where every attempt passes,
 * and tells the halves apart by whether the request carries a `tools` field.
 */
export class ProbeProgress {
  private attempts = { native: 0, text: 0 };

  constructor(
    private readonly write: (text: string) => void,
    private readonly model: string,
  ) {}

  wrap(next: FetchFn = (input, init) => fetch(input, init)): FetchFn {
    return (input, init) => {
      this.attempt(typeof init?.body === 'string' && /"tools"\s*:/.test(init.body) ? 'native' : 'text');
      return next(input, init);
    };
  }

  private attempt(half: 'native' | 'text'): void {
    const attempt = ++this.attempts[half];
    if (attempt > 1) return this.line(`↻ ${half === 'native' ? 'native tool calls' : 'text protocol'}: attempt ${attempt}`);
    this.line(
      half === 'native'
        ? `… asking ${this.model} to call a tool natively (the "tools" field)`
        : `… asking ${this.model} to call a tool by the text protocol (a <<<[TOOL_REQUEST]>>> block)`,
    );
  }

  private line(text: string): void {
    this.write(`${text}\n`);
  }
}
