/**
 * The host ↔ webview protocol: the one module both sides import. The webview imports types only
 * (`import type`), so zod stays out of its bundle; the host validates every incoming message
 * against `webviewToHostSchema` before acting on it (security.md #6).
 *
 * Conventions: messages are named `domain/verb`; streams are chunk messages ending in a done
 * message; requests that need an answer carry a `requestId` echoed in the reply.
 */
import { z } from 'zod';
import type {
  PromptRunMessage,
  PromptStepRecord,
  AgentToolCall,
  AgentToolKind,
  AgentToolPreview,
  AgentTurnMessage,
  AssistantMessage,
  Conversation,
  ConversationSummary,
  DefinitionRecord,
  IndexContextRecord,
  InstructionRecord,
  TokenUsage,
  UserMessage,
} from '../core/history/conversationTypes';

export type {
  AgentContextRef,
  DefinitionRecord,
  IndexContextRecord,
  InstructionRecord,
  PromptRunMessage,
  PromptStepRecord,
  AgentToolApproval,
  AgentToolCall,
  AgentToolCallStatus,
  AgentToolKind,
  AgentToolPreview,
  AgentTurnMessage,
  AgentTurnStatus,
  AgentTurnStopReason,
  AssistantMessage,
  ChatMessage,
  Conversation,
  ConversationSummary,
  TokenUsage,
  UserMessage,
} from '../core/history/conversationTypes';

/** One field of an /agent form, derived from an action prompt's `input_variables`. */
export interface PromptInputField {
  name: string;
  label: string;
  type: 'text' | 'multiline' | 'path' | 'number' | 'boolean' | 'select';
  required: boolean;
  default?: string | number | boolean;
  options?: Array<string | number | boolean>;
  placeholder?: string;
}

export interface PromptSummary {
  id: string;
  title: string;
  description: string;
  source: 'builtin' | 'workspace' | 'file';
  inputs: PromptInputField[];
  /** Set for an invalid file: it is listed with its first error, never hidden. */
  error?: string;
  /**
   * Where that error is, for the picker to open the file there (`file/open`): the path relative to the
   * workspace when the file is inside it, and the message without its location prefix.
   */
  errorAt?: { path: string; line: number; column: number; message: string };
}

/** What the status line and the empty state show. Never carries the key itself. */
export interface HostStatus {
  configured: boolean;
  baseUrl: string;
  model?: string;
  /** How the status line names the model, e.g. `local · qwen2.5-coder-1.5b (llama.cpp)`. */
  modelLabel?: string;
  toolModel?: string;
  hasApiKey: boolean;
  /** False in Restricted Mode: no workspace prompts, no file tools. */
  trusted: boolean;
  /** `codewiki.provider`: an OpenAI-compatible endpoint (default) or VS Code's own language models. */
  provider?: 'openai' | 'vscode';
  /** Why no model can answer, in words for the user with what to do (e.g. no VS Code language model is available). */
  problem?: string;
  /** With nothing configured: the local model this machine can start (its name), offered beside the settings. */
  localModel?: string;
}

/**
 * How a message is answered. `agent`: the model may call tools (read files, search, and with approval
 * edit files and run commands). `chat`: a plain answer from the conversation alone.
 */
export type ChatMode = 'agent' | 'chat';

/** One tool as the tool picker shows it. */
export interface ToolInfo {
  name: string;
  displayName: string;
  /** Plain text that may come from a workspace file (agent definitions, prompts): render it as text. */
  description: string;
  /** read and think tools run freely; write and execute tools ask for approval unless auto-approved. */
  kind: AgentToolKind;
  category: 'file' | 'search' | 'shell' | 'llm' | 'prompt' | 'custom';
  /** False for workflow-only tools: shown greyed out, never offered to the agent, cannot be toggled. */
  agentCallable: boolean;
  /** Offered to the agent under the current settings (master switch, per-tool choice, default for new tools). */
  enabled: boolean;
}

/** The tool picker's state (`codewiki.tools.*` user settings applied to the workspace's tools). */
export interface ToolsState {
  /** Master switch: off means the agent gets no tools at all. */
  enabled: boolean;
  /** Whether a tool with no explicit choice (e.g. new in an update) is on. */
  enableNewTools: boolean;
  tools: ToolInfo[];
  /** Set when the workspace's tools cannot be listed (Restricted Mode, no folder); `tools` is then empty. */
  unavailable?: string;
}

/**
 * A file or an editor selection attached to a question: a chip in the input. Files are read by the
 * host through the workspace's file policy (inside the workspace, no secret files), never by the webview.
 */
export type ContextAttachment =
  | { kind: 'file'; path: string }
  /** `#codebase`: the code index's best matches for the question go with it. */
  | { kind: 'codebase' }
  /** Lines `startLine..endLine` (1-based, inclusive) of `path`. */
  | { kind: 'selection'; path: string; startLine: number; endLine: number };

/** What `agent/approval` asks the user to decide; answered with `agent/approve`. */
export interface ApprovalPrompt {
  /** The agent turn (AgentTurnMessage id) the call belongs to. */
  turnId: string;
  /** Echo it in `agent/approve` and `editor/diff`. */
  approvalId: string;
  /** The tool call (AgentToolCall id) waiting for the answer. */
  callId: string;
  tool: string;
  displayName: string;
  kind: AgentToolKind;
  /** A unified diff for file changes (`editor/diff` opens it in VS Code's diff editor), the command and folder for commands. */
  preview: AgentToolPreview;
  /** One sentence on why this call asks. */
  why: string;
  /** False when "Allow in this conversation" would not be remembered (a compound command asks every time): hide that button. */
  canAllowForConversation: boolean;
  /** Set when a sub-agent asks: the id of the parent's call (AgentToolCall id) that started the sub-agent; show the card under it. */
  parentCallId?: string;
}

export type ApprovalAnswer = 'allow-once' | 'allow-conversation' | 'deny';

export type SelectionAttachment = Extract<ContextAttachment, { kind: 'selection' }>;

/**
 * Host → webview. Agent-mode turns (`agent/send`) stream as:
 *   agentTurn/started → (agentTurn/chunk | agentTurn/reasoning | agentTurn/toolCall | agent/approval |
 *   agent/approvalSettled | agentTurn/usage | agentTurn/warning | agentTurn/answerRestart | agentTurn/fallback)* →
 *   agentTurn/done.
 * `agentTurn/done` carries the whole final message: replace the live copy with it. (The
 * `promptRun/started|step|chunk|reasoning|done` messages are `/agent` runs of an action prompt, a different thing:
 * "agent" is the tool loop only.)
 */
export type HostToWebview =
  | { type: 'state/init'; status: HostStatus; prompts: PromptSummary[]; conversation?: Conversation }
  | { type: 'status/update'; status: HostStatus }
  | { type: 'prompts/list'; prompts: PromptSummary[] }
  | { type: 'conversation/load'; conversation: Conversation }
  | { type: 'chat/started'; conversationId: string; user: UserMessage; assistant: AssistantMessage }
  | { type: 'chat/chunk'; messageId: string; text: string }
  /** A reasoning model's thinking as it streams: append to `message.reasoning` (show collapsed), never to the answer. */
  | { type: 'chat/reasoning'; messageId: string; text: string }
  | { type: 'chat/done'; message: AssistantMessage }
  | { type: 'promptRun/started'; conversationId: string; run: PromptRunMessage }
  | { type: 'promptRun/step'; runId: string; step: PromptStepRecord }
  | { type: 'promptRun/chunk'; runId: string; text: string }
  /** The final answer's thinking as it streams: append to `run.reasoning` (show collapsed). */
  | { type: 'promptRun/reasoning'; runId: string; text: string }
  | { type: 'promptRun/done'; run: PromptRunMessage }
  | { type: 'history/list'; items: ConversationSummary[]; query: string }
  | { type: 'path/suggestions'; requestId: string; items: string[] }
  | { type: 'path/picked'; requestId: string; path?: string }
  | { type: 'error/show'; message: string }
  | { type: 'ui/show'; view: 'chat' | 'history' | 'agent'; promptId?: string }
  /** An agent turn began: show the question and an empty turn (status `streaming`). */
  | { type: 'agentTurn/started'; conversationId: string; user: UserMessage; turn: AgentTurnMessage }
  /** Answer text as it streams (narration between tool calls included): append to `turn.answer`. */
  | { type: 'agentTurn/chunk'; turnId: string; text: string }
  /** The answer so far was sent back (a warning says why): the chunks that follow are the new answer, from `at` in the text. */
  | { type: 'agentTurn/answerRestart'; turnId: string; at: number }
  /** A reasoning model's thinking as it streams: append to `turn.reasoning` (show collapsed). */
  | { type: 'agentTurn/reasoning'; turnId: string; text: string }
  /** A tool call started, is waiting for / got an approval, or ended: upsert into `turn.toolCalls` by `call.id` (+ `call.parentCallId`). */
  | { type: 'agentTurn/toolCall'; turnId: string; call: AgentToolCall }
  /** After each model call: the turn's running totals. */
  /** After each model call: the turn's running totals, and the prompt tokens of that call (how full the context is). */
  | { type: 'agentTurn/usage'; turnId: string; iterations: number; tokens: TokenUsage; contextTokens?: number }
  /** Definitions the question names exactly, from the code index: shown as cards before the model answers. */
  | { type: 'agentTurn/definitions'; turnId: string; definitions: DefinitionRecord[] }
  /** What the code index sent the model with the question. */
  | { type: 'agentTurn/indexContext'; turnId: string; context: IndexContextRecord }
  /** The question waits for the code index to finish building. */
  /** The project's instruction files the agent's system prompt carries: shown with the turn like attachments. */
  | { type: 'agentTurn/instructions'; turnId: string; instructions: InstructionRecord[] }
  | { type: 'agentTurn/indexWait'; turnId: string; indexedFiles: number; totalFiles: number }
  | { type: 'agentTurn/warning'; turnId: string; message: string }
  /** The server refused tool definitions; the turn continues without native tool calls. */
  | { type: 'agentTurn/fallback'; turnId: string; reason: string }
  /** The turn ended (done, stopped or error): the complete message, as saved. */
  | { type: 'agentTurn/done'; turn: AgentTurnMessage }
  /** A write or execute call waits for the user: show an approval card. Sent again after `state/init` while it still waits (upsert by approvalId). */
  | ({ type: 'agent/approval' } & ApprovalPrompt)
  /** The approval is over (answered here, or `cancelled` by Stop): remove its card. */
  | { type: 'agent/approvalSettled'; approvalId: string; callId: string; outcome: ApprovalAnswer | 'cancelled' }
  /** The tool picker's state; sent after `state/init` and whenever the settings change. */
  | ({ type: 'tools/list' } & ToolsState)
  /** The mode new messages use (`codewiki.chat.mode`); sent after `state/init` and when it changes. */
  | { type: 'chat/mode'; mode: ChatMode }
  /** Add a chip to the input (CodeWiki: Add Selection to Chat, Ctrl/Cmd+L in the editor). */
  | { type: 'context/add'; attachment: ContextAttachment }
  /** The answer to `selection/request`: the active editor's selection (whole lines), or why there is none. */
  | { type: 'selection/current'; requestId: string; selection?: SelectionAttachment; problem?: string };

const id = z.string().min(1).max(200);
const text = z.string().max(1_000_000);
const inputValue = z.union([z.string().max(100_000), z.number(), z.boolean()]);
/** A path as the user or a link names it; the host still resolves it inside the workspace before use. */
const workspacePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\0'), 'a path cannot contain NUL');
const lineNumber = z.number().int().min(1).max(10_000_000);
const toolName = z.string().regex(/^[A-Za-z0-9_.-]{1,100}$/, 'not a tool name');
const chatMode = z.enum(['agent', 'chat']);

const attachment = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), path: workspacePath }),
  z.strictObject({ kind: z.literal('codebase') }),
  z
    .strictObject({ kind: z.literal('selection'), path: workspacePath, startLine: lineNumber, endLine: lineNumber })
    .refine((selection) => selection.endLine >= selection.startLine, 'endLine is before startLine'),
]);

/** `@tool` names typed in a question (with or without the `@`), each forced on one of the first model calls. */
const toolMentions = z
  .array(z.string().regex(/^@?[A-Za-z0-9_.-]{1,100}$/, 'not a tool mention'))
  .max(20)
  .default([]);

/** Every message the webview may send. Strict objects: unknown fields are rejected, not ignored. */
export const webviewToHostSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('webview/ready') }),
  z.strictObject({ type: z.literal('chat/send'), text: text.min(1) }),
  z.strictObject({ type: z.literal('chat/stop') }),
  z.strictObject({ type: z.literal('chat/retry'), messageId: id }),
  z.strictObject({ type: z.literal('promptRun/start'), promptId: id, inputs: z.record(z.string().max(200), inputValue) }),
  z.strictObject({ type: z.literal('conversation/new') }),
  z.strictObject({ type: z.literal('history/request'), query: z.string().max(500).default('') }),
  z.strictObject({ type: z.literal('history/open'), id }),
  z.strictObject({ type: z.literal('history/rename'), id, title: z.string().min(1).max(200) }),
  z.strictObject({ type: z.literal('history/delete'), id }),
  z.strictObject({ type: z.literal('history/export'), id }),
  z.strictObject({ type: z.literal('code/copy'), text }),
  z.strictObject({ type: z.literal('code/insert'), text }),
  z.strictObject({ type: z.literal('code/newFile'), text, language: z.string().max(50).optional() }),
  z.strictObject({ type: z.literal('answer/save'), text }),
  z.strictObject({ type: z.literal('runLog/open'), runId: id }),
  z.strictObject({ type: z.literal('path/suggest'), requestId: id, prefix: z.string().max(1000) }),
  z.strictObject({ type: z.literal('path/browse'), requestId: id, kind: z.enum(['file', 'folder', 'any']) }),
  z.strictObject({ type: z.literal('settings/open'), setting: z.enum(['baseUrl', 'model', 'toolModel']).optional() }),
  z.strictObject({ type: z.literal('apiKey/set') }),
  z.strictObject({ type: z.literal('localModel/start') }),
  /**
   * A question in agent mode (or `mode: 'chat'` for one plain answer; default: the `codewiki.chat.mode`
   * setting). `mentions`: `@tool` names, each forced on one of the first model calls. `attachments`:
   * chips. In the text, `#file:path` attaches that file and `#selection` the editor's current
   * selection (the host reads both; no chip needed). The file open in the editor is added by the
   * host. A failed or stopped agent turn is answered again with `chat/retry` {messageId: turn id}.
   */
  z.strictObject({
    type: z.literal('agent/send'),
    text: text.min(1),
    mode: chatMode.optional(),
    mentions: toolMentions,
    attachments: z.array(attachment).max(20).default([]),
  }),
  /**
   * The agent-mode question the composer holds, sent when the user pauses typing (never with `#selection`): the
   * host may compute its prompt on a local llama-server ahead of `agent/send` (codewiki.agent.prefillWhileTyping).
   * Nothing is answered, saved or shown.
   */
  z.strictObject({
    type: z.literal('agent/draft'),
    text: text.min(1),
    mentions: toolMentions,
    attachments: z.array(attachment).max(20).default([]),
  }),
  /** The answer to an `agent/approval` card; `reason` goes to the model with a denial. */
  z.strictObject({
    type: z.literal('agent/approve'),
    approvalId: id,
    decision: z.enum(['allow-once', 'allow-conversation', 'deny']),
    reason: z.string().max(2000).optional(),
  }),
  /** Asks for `tools/list` again. */
  z.strictObject({ type: z.literal('tools/request') }),
  /** Opens CodeWiki: Tool Tester (a fixed command; the message names nothing the host would run as given). */
  z.strictObject({ type: z.literal('tools/openTester') }),
  /** Turns one agent-callable tool on or off (user settings, `codewiki.tools.toggles`). */
  z.strictObject({ type: z.literal('tools/toggle'), name: toolName, enabled: z.boolean() }),
  /** The master switch (`codewiki.tools.enabled`). */
  z.strictObject({ type: z.literal('tools/setEnabled'), enabled: z.boolean() }),
  /** Whether tools without an explicit choice are on (`codewiki.tools.enableNewTools`). */
  z.strictObject({ type: z.literal('tools/setEnableNewTools'), enabled: z.boolean() }),
  /** Sets `codewiki.chat.mode` (user settings). */
  z.strictObject({ type: z.literal('chat/setMode'), mode: chatMode }),
  /** Opens a workspace file in the editor, at `line` (1-based) when given: `path:line` links in answers. Refused outside the workspace. */
  z.strictObject({ type: z.literal('file/open'), path: workspacePath, line: lineNumber.optional() }),
  /** Opens VS Code's diff editor on a pending approval's proposed file change. */
  z.strictObject({ type: z.literal('editor/diff'), approvalId: id }),
  /**
   * Asks for the active editor's selection (answered with `selection/current`): the webview sends it
   * for `#selection` at send time, so the question carries the lines the user has selected now.
   */
  z.strictObject({ type: z.literal('selection/request'), requestId: id }),
]);

export type WebviewToHost = z.infer<typeof webviewToHostSchema>;
