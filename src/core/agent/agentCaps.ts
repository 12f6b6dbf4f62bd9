import { formatMs } from '../util/cancellation';
import type { AgentStopReason } from './agentEvents';

/** Every loop ends (security promise #11): these bound one agent run. */
export interface AgentCaps {
  /** Model turns that may call tools. */
  maxIterations: number;
  /** The whole run, model calls and tools included. */
  wallClockMs: number;
  /** Input plus output tokens over every call of the run (estimated when the server reports none). */
  tokenBudget: number;
  /** The same tool with the same arguments may run this many times; the next identical call stops the loop. */
  maxIdenticalCalls: number;
}

export const DEFAULT_AGENT_CAPS: Readonly<AgentCaps> = Object.freeze({
  maxIterations: 12,
  wallClockMs: 10 * 60_000,
  tokenBudget: 250_000,
  maxIdenticalCalls: 2,
});

/** Limits on what tool results carry. */
export interface AgentOutputLimits {
  /** Longest tool result sent to the model (characters). */
  maxResultChars: number;
  /** Longest tool output carried by an event (and so the log and the UI). */
  maxEventOutputChars: number;
  /** Read and think calls of one turn that run at the same time. */
  concurrency: number;
}

export const DEFAULT_OUTPUT_LIMITS: Readonly<AgentOutputLimits> = Object.freeze({
  maxResultChars: 30_000,
  maxEventOutputChars: 4_000,
  concurrency: 8,
});

export type CapStopReason = Extract<AgentStopReason, 'max-iterations' | 'wall-clock' | 'token-budget' | 'repeated-call'>;

export function isCapStop(reason: AgentStopReason): reason is CapStopReason {
  return reason === 'max-iterations' || reason === 'wall-clock' || reason === 'token-budget' || reason === 'repeated-call';
}

/** Why the run was cut short, in words for both the model's last instruction and the user's note. */
export function describeCap(reason: CapStopReason, caps: AgentCaps, repeatedTool?: string): string {
  switch (reason) {
    case 'max-iterations':
      return `the agent reached its limit of ${caps.maxIterations} tool-calling iterations`;
    case 'wall-clock':
      return `the run reached its time limit of ${formatMs(caps.wallClockMs)}`;
    case 'token-budget':
      return `the run used up its budget of ${caps.tokenBudget.toLocaleString('en-US')} tokens`;
    case 'repeated-call':
      return `the model asked for the same call${repeatedTool ? ` (${repeatedTool} with the same arguments)` : ''} a ${ordinal(caps.maxIdenticalCalls + 1)} time`;
  }
}

function ordinal(n: number): string {
  return n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}
