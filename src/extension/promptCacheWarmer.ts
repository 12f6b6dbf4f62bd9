import type * as vscode from 'vscode';
import type { PrefixWarmth } from '../core/agent/prefixWarmup';

/**
 * Warms the local model's prompt cache with agent mode's fixed prompt whenever what it holds may be stale: when
 * the session opens, when the engine is rebuilt (new models, prompts, index) and when agent settings change.
 * One warm-up at a time; a new trigger stops the old one, and so does disposing. A failure is logged, never shown:
 * the first question then computes the prompt itself, as it would without the warm-up.
 */
export class PromptCacheWarmer implements vscode.Disposable {
  private running: AbortController | undefined;

  constructor(
    private readonly warm: (signal: AbortSignal) => Promise<PrefixWarmth | undefined>,
    private readonly log: (line: string) => void,
  ) {}

  trigger(): void {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    this.warm(controller.signal).then(
      (warmth) => warmth && !controller.signal.aborted && this.log(describeWarmth(warmth)),
      (error: unknown) => !controller.signal.aborted && this.log(`Prompt cache warm-up failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  dispose(): void {
    this.running?.abort();
  }
}

export function describeWarmth(warmth: PrefixWarmth): string {
  const restored = warmth.restoredTokens ? `${warmth.restoredTokens.toLocaleString('en-US')} tokens read back from disk, ` : '';
  const saved = warmth.savedTokens ? `, ${warmth.savedTokens.toLocaleString('en-US')} tokens saved for the next start` : '';
  return `Prompt cache: agent prompt ready on the local model (${restored}${(warmth.warmMs / 1000).toFixed(1)} s${saved}).`;
}
