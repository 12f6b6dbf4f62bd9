/**
 * The Tool Tester panel's protocol (CodeWiki: Tool Tester). A page of its own, beside the sidebar
 * chat, so it has its own small set of messages; the same conventions apply: `domain/verb` names,
 * `requestId` echoed in replies, and every incoming message validated by the host (security.md #6).
 * The page imports types only.
 */
import { z } from 'zod';
import type { ToolInfo } from './protocol';

/** One tool as the tester lists it: what the picker shows, plus the parameters' JSON Schema. */
export interface TesterTool extends ToolInfo {
  schema: Record<string, unknown>;
}

/** What the model would be told now, for one protocol. */
export interface TesterPreview {
  protocol: 'native' | 'text';
  /** The model family whose guidance is in the prompt (e.g. `qwen`). */
  family: string;
  systemPrompt: string;
  /** The request's `tools` field as JSON text; empty under the text protocol (the tools are in the prompt). */
  toolsJson: string;
  toolNames: string[];
}

export interface TesterState {
  /** The model the previews are built for, e.g. `qwen2.5-coder-1.5b-instruct`, or why there is none. */
  model: string;
  /** `codewiki.agent.toolProtocol` now. */
  protocolSetting: 'auto' | 'native' | 'text';
  toolsEnabled: boolean;
  tools: TesterTool[];
  previews: TesterPreview[];
  /** Set when the workspace's tools cannot be listed (Restricted Mode, no folder). */
  unavailable?: string;
}

/** What the tester read in pasted text, per call. */
export interface TesterCallCheck {
  name: string;
  args?: Record<string, unknown>;
  rawArgs: string;
  tool?: { displayName: string; kind: string; category: string };
  valid: boolean;
  problem?: string;
  approval: { needed: boolean; autoApproved: boolean; why: string };
}

export interface TesterParse {
  /** `text-protocol`, `json` or `native`; absent when nothing was found. */
  form?: string;
  calls: TesterCallCheck[];
  error?: string;
}

export interface TesterRun {
  status: string;
  /** What the model would get back, uncut. */
  content: string;
  durationMs: number;
}

export interface TesterProbeAttempt {
  protocol: 'native' | 'text';
  outcome: string;
  works: boolean;
  detail: string;
  answer: string;
  /** Each HTTP exchange as text (method, URL, status, bodies), the key removed. */
  exchanges: string[];
}

export interface TesterProbe {
  model: string;
  endpoint: string;
  verdict: 'both' | 'native' | 'text' | 'neither';
  suggestion?: 'native' | 'text';
  summary: string;
  attempts: TesterProbeAttempt[];
}

export type HostToTester =
  | { type: 'tester/state'; state: TesterState }
  | { type: 'tester/parsed'; requestId: string; parse: TesterParse }
  | { type: 'tester/ran'; requestId: string; run: TesterRun }
  /** The probe started (`running`) or ended: with `probe` on success, `error` when it could not run at all. */
  | { type: 'tester/probe'; status: 'running' | 'done'; probe?: TesterProbe; error?: string }
  | { type: 'tester/error'; requestId?: string; message: string };

const requestId = z.string().min(1).max(200);
const toolName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'not a tool name');

/** Every message the tester page may send. Strict: unknown fields are rejected. */
export const testerToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('tester/ready') }),
  /** Turns one agent-callable tool on or off in the user settings; the previews follow. */
  z.strictObject({ type: z.literal('tester/toggle'), name: toolName, enabled: z.boolean() }),
  /** Reads pasted model-style text: what was parsed, whether it validates, which approval it needs. */
  z.strictObject({ type: z.literal('tester/parse'), requestId, text: z.string().min(1).max(200_000) }),
  /** Runs call `index` of the pasted text through the agent's runner (writes and commands still ask). */
  z.strictObject({ type: z.literal('tester/run'), requestId, text: z.string().min(1).max(200_000), index: z.number().int().min(0).max(50) }),
  /** Test my server: the tool-calling probe against the configured endpoint and model. */
  z.strictObject({ type: z.literal('tester/probe') }),
  z.strictObject({ type: z.literal('tester/cancel') }),
  /** Sets `codewiki.agent.toolProtocol` in the user settings (the probe's suggestion). */
  z.strictObject({ type: z.literal('tester/setProtocol'), protocol: z.enum(['auto', 'native', 'text']) }),
]);

export type TesterToHost = z.infer<typeof testerToHostSchema>;
