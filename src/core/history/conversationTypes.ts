/**
 * The conversation data model, shared by the store, the extension host and (as `import type`) the webview.
 * Everything here is plain JSON so a conversation can be written to disk and posted to the webview as is.
 */

export type AssistantStatus = 'streaming' | 'done' | 'stopped' | 'error';
export type PromptRunStatus = 'running' | 'done' | 'stopped' | 'error';
export type AgentStepStatus = 'pending' | 'running' | 'success' | 'skipped' | 'failed' | 'cancelled';

export interface TokenUsage {
  input: number;
  output: number;
  total: number;
  /** Of `input`, prompt tokens the server took from its cache (when it says). */
  cached?: number;
}

export interface UserMessage {
  kind: 'user';
  id: string;
  createdAt: string;
  text: string;
}

export interface AssistantMessage {
  kind: 'assistant';
  id: string;
  createdAt: string;
  text: string;
  status: AssistantStatus;
  error?: string;
  model?: string;
  usage?: TokenUsage;
  /** How long the answer took, from the question to the last token (set when it ends). */
  durationMs?: number;
  /** A reasoning model's thinking, kept out of the answer (capped). */
  reasoning?: string;
  /** Earlier exchanges condensed to a recap because the whole conversation did not fit the model's context. */
  condensedTurns?: number;
}

export interface PromptStepRecord {
  id: string;
  /** The step's YAML `title` (its id when it has none): what the step list shows first. */
  title?: string;
  tool: string;
  status: AgentStepStatus;
  durationMs?: number;
  attempts?: number;
  tokens?: number;
  inputPreview?: string;
  outputPreview?: string;
  error?: string;
  /** What the CLI prints as `! …` for this step: a cut-off answer, an invented file selection, failed items. */
  warnings?: string[];
}

/**
 * One `/agent` run. It carries the user's half of the exchange (prompt title + inputs) as well as the
 * steps and the answer, so a run is a complete, restorable turn even when no plain user message precedes it.
 */
export interface PromptRunMessage {
  kind: 'prompt-run';
  id: string;
  createdAt: string;
  promptId: string;
  promptTitle: string;
  inputs: Record<string, unknown>;
  steps: PromptStepRecord[];
  answer: string;
  /** The final answer's thinking (a reasoning model's `<think>` block or `reasoning_content`), kept out of the answer. */
  reasoning?: string;
  status: PromptRunStatus;
  error?: string;
  /** Every warning of the run, the steps' included, in the order they happened. */
  warnings?: string[];
  /** The run's total, final answer included, as the CLI prints it. */
  tokens?: TokenUsage;
  /** The final answer's own tokens (the CLI's `✓ answer … tokens`), when the prompt has a final LLM answer. */
  answerTokens?: number;
  /** Wall time of the whole run. */
  durationMs?: number;
  /** The final prompt as sent (estimated input tokens), against its budget and the server's context window when it said. */
  context?: { promptTokens: number; budgetTokens: number; serverContext?: number };
  /** The run log's JSON file, named after the `run_id` it records. */
  runLogPath?: string;
}

export type AgentTurnStatus = 'streaming' | 'done' | 'stopped' | 'error';

/**
 * running: started (or approved and running). awaiting-approval: waiting for the user's answer.
 * ok / error / denied / skipped: as the agent reports them. cancelled: the turn was stopped (or the
 * window died) before the call finished.
 */
export type AgentToolCallStatus = 'running' | 'awaiting-approval' | 'ok' | 'error' | 'denied' | 'skipped' | 'cancelled';

export type AgentToolKind = 'read' | 'write' | 'execute' | 'think';

/** The exact change a write or execute call proposed (mirrors the agent's ToolPreview; `diff` may be capped). */
export type AgentToolPreview =
  | { type: 'diff'; path: string; action: 'create' | 'replace' | 'edit'; diff: string; added: number; removed: number }
  | { type: 'command'; command: string; cwd: string; timeoutMs: number }
  | { type: 'arguments'; text: string };

export interface AgentToolApproval {
  decision: 'allow-once' | 'allow-conversation' | 'deny';
  /** policy: the user's auto-approval settings; conversation: an earlier "allow in this conversation"; user: asked now. */
  by: 'policy' | 'conversation' | 'user';
  reason?: string;
}

/** One tool call of an agent turn, as the user saw it. */
export interface AgentToolCall {
  /** The model's call id; unique within the turn together with `parentCallId`. */
  id: string;
  tool: string;
  displayName: string;
  kind?: AgentToolKind;
  /** One line of the most telling arguments, e.g. `path="src/a.ts"`. */
  argsSummary: string;
  /** The arguments as JSON (long strings cut with a marker), or the raw text when they were not valid JSON. */
  args: unknown;
  iteration: number;
  status: AgentToolCallStatus;
  durationMs?: number;
  tokens?: TokenUsage;
  /** What the tool returned (or why it failed), capped with a marker. */
  output?: string;
  error?: string;
  /** Write and execute calls: the change that was proposed. */
  preview?: AgentToolPreview;
  approval?: AgentToolApproval;
  /** Set on a sub-agent's calls: the id of the call that started the sub-agent. */
  parentCallId?: string;
}

/** A file or an editor selection the user attached to the question (`#file:…`, `#selection`). */
/** A definition the question named exactly, as the code index found it: shown as a card above the answer. */
export interface DefinitionRecord {
  name: string;
  kind: string;
  /** Workspace-relative, forward slashes. */
  path: string;
  line: number;
  signature: string;
  container?: string;
  doc?: string;
  /** Only declared there (a C prototype): the index found no body of that name. */
  declaration?: boolean;
}

/** What the code index gave the model with the question. */
export interface IndexContextRecord {
  files: string[];
  tokens: number;
  /** The index was still building: the candidates came from part of the workspace. */
  partial?: boolean;
}

/** A project instruction file (AGENTS.md, .codewiki/instructions.md) the agent's system prompt carried for a turn. */
export interface InstructionRecord {
  path: string;
  tokens: number;
  /** Cut to fit the instructions' token cap. */
  truncated?: boolean;
}

export interface AgentContextRef {
  /** `codebase`: the code index's matches for the question (`#codebase`); `files` says which, `path` is empty. */
  kind: 'file' | 'selection' | 'codebase';
  /** Workspace-relative, forward slashes. */
  path: string;
  /** For `codebase`: the files whose matches were sent. */
  files?: string[];
  startLine?: number;
  endLine?: number;
  /** The content sent to the model was cut to the size cap. */
  truncated?: boolean;
}

export type AgentTurnStopReason = 'answered' | 'max-iterations' | 'wall-clock' | 'token-budget' | 'repeated-call' | 'cancelled' | 'failed';

/**
 * One agent-mode answer: the model called tools until it could answer. The user's question is the
 * UserMessage before it. Saved whole when it starts and when it ends; in between, each tool call is
 * appended as its own record (AgentTurnProgress rides along), so a crash mid-turn keeps every
 * finished call and saving a call costs the size of that call, not of the turn so far.
 */
export interface AgentTurnMessage {
  kind: 'agent-turn';
  id: string;
  createdAt: string;
  /**
   * Everything the model said, narration between tool calls included, and what it wrote before an answer was sent
   * back: read the answer itself with `agentTurnAnswer()` (history/agentTurnAnswer.ts).
   */
  answer: string;
  /**
   * Where the answer begins in `answer` when the agent sent earlier text back (a check asked the model again, and the
   * turn's warnings say why): the text before it is shown folded as sent back, never lost.
   */
  answerStart?: number;
  status: AgentTurnStatus;
  toolCalls: AgentToolCall[];
  /** A reasoning model's thinking, kept out of the answer (capped). */
  reasoning?: string;
  warnings?: string[];
  /** Set when the server refused tool definitions and the run fell back to plan-then-answer: why. */
  fallback?: string;
  stopReason?: AgentTurnStopReason;
  iterations?: number;
  tokens?: TokenUsage;
  model?: string;
  error?: string;
  /** Files and selections attached to the question. */
  context?: AgentContextRef[];
  /** `@tool` mentions of the question, in order. */
  mentions?: string[];
  /** The file open in the editor when the question was asked (workspace-relative). */
  openFile?: string;
  /** How long the turn took, from the question to its end (set when it ends). */
  durationMs?: number;
  /** From the question to the first token the model wrote (answer or thinking). */
  firstTokenMs?: number;
  /** Prompt tokens of the turn's last model call: how full the model's context was. */
  contextTokens?: number;
  /** The server's context window, when it says (llama-server does). */
  contextWindow?: number;
  /** Definitions the question named exactly, from the code index, before the model said anything. */
  definitions?: DefinitionRecord[];
  /** What the code index sent the model with the question. */
  indexContext?: IndexContextRecord;
  /** Earlier exchanges condensed to a recap because the whole conversation did not fit the model's context. */
  condensedTurns?: number;
  /** The project's instruction files in the system prompt, shown with the turn like an attachment. */
  instructions?: InstructionRecord[];
}

/**
 * What an agent turn gained since its previous call record: text added to the answer and the
 * thinking, new warnings, and the latest totals. Saved with each call so that a crash mid-turn
 * keeps the narration and the counts too, without rewriting the turn.
 */
export interface AgentTurnProgress {
  answerAdded?: string;
  /** Set when an answer was sent back since the last record (AgentTurnMessage.answerStart). */
  answerStart?: number;
  reasoningAdded?: string;
  warningsAdded?: string[];
  tokens?: TokenUsage;
  iterations?: number;
  model?: string;
  fallback?: string;
}

export type ChatMessage = UserMessage | AssistantMessage | PromptRunMessage | AgentTurnMessage;

export interface Conversation {
  id: string;
  title: string;
  /** ISO 8601 timestamps (UTC), so files stay readable and compare as strings. */
  createdAt: string;
  updatedAt: string;
  messages: ChatMessage[];
}

/** What the history list shows; kept in `index.json` so listing needs no conversation file. */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  preview: string;
}
