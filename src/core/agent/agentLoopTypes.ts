import type { BaseMessage } from '@langchain/core/messages';
import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import type { TokenUsage } from '../llm/usage';
import type { Workspace } from '../workspace/workspace';
import type { AgentCaps, AgentOutputLimits } from './agentCaps';
import type { AgentEventListener, AgentStopReason } from './agentEvents';
import type { AgentRunLog } from './agentRunLog';
import type { AgentToolSet } from './agentToolSet';
import type { ToolApprovals } from './approvalGate';
import type { ModelAdapterSettings } from './modelAdapters';
import type { AgentChatModel } from './streamTurn';
import type { ToolProtocolSetting } from './textProtocol/toolProtocol';
import type { ToolProtocolMemory } from './textProtocol/toolProtocolMemory';

/** What the agent reads of the wiki (CodeWiki implements it). */
export interface WikiOverviews {
  overviewFor(path: string): Promise<{ page: string; module: string; text: string } | undefined>;
}

export interface AgentLoopDependencies {
  /** The main model; `bindTools` is called once per run with the tool set's prebuilt definitions. */
  model: AgentChatModel;
  modelName: string;
  /** The fallback's planning call (e.g. the tool model); the main model when absent. */
  planningModel?: AgentChatModel;
  tools: AgentToolSet;
  approvals: ToolApprovals;
  /** For the top-level layout in the system prompt. */
  workspace?: Workspace;
  /** The workspace's code index: the system prompt's repo map and each question's candidates come from it. */
  codeIndex?: CodeIndex;
  /** The workspace's wiki: a "how does X work" question starts from the overview of the module its best match is in. */
  wiki?: WikiOverviews;
  caps?: Partial<AgentCaps>;
  limits?: Partial<AgentOutputLimits>;
  adapter?: ModelAdapterSettings;
  /** A model failure in plain words (ModelProvider.describeError); the error's message otherwise. */
  describeModelError?(error: unknown): string;
  /** Extra `configurable` entries handed to tools. */
  toolConfigurable?: Record<string, unknown>;
  /** `codewiki.agent.toolProtocol` / `--tool-protocol`: native calls, the text protocol, or `auto` (default). */
  toolProtocol?: ToolProtocolSetting;
  /** Where `auto` remembers a switch to text, per model and endpoint; without it only this run knows. */
  protocolMemory?: ToolProtocolMemory;
  /** The model's endpoint (base URL), the other half of the memory's key. */
  endpoint?: string;
}

/**
 * One user turn. Nothing here can grant approvals: those come only from the ToolApprovals the
 * loop was built with (security promise #8), so a request assembled from a webview message, an
 * action prompt or an agent definition carries only what to ask and which tools to force.
 */
export interface AgentRunRequest {
  question: string;
  /** The user's own words, for the code index to search (the question may also carry attachments). Default: `question`. */
  indexQuery?: string;
  /** False when the question already carries the index's matches (`#codebase`): none are added. Default true. */
  withIndexContext?: boolean;
  conversationId: string;
  /** Earlier turns of the conversation, oldest first (e.g. the `messages` of earlier results). */
  history?: BaseMessage[];
  /** Workspace-relative path of the file open in the editor. */
  openFile?: string;
  /** `@tool` mentions: each is forced (tool_choice) on one of the first turns, in order. */
  mentions?: string[];
  signal?: AbortSignal;
  onEvent?: AgentEventListener;
  /** Set on a sub-agent's run: the id of the tool call that started it, copied onto every event. */
  parentCallId?: string;
}

export interface AgentRunResult {
  answer: string;
  stopReason: AgentStopReason;
  /** Model turns, the final no-tools call included. */
  iterations: number;
  tokens: TokenUsage;
  durationMs: number;
  error?: string;
  /** This turn's messages (question, tool calls, tool results, answer), to pass as `history` next time. */
  messages: BaseMessage[];
  log: AgentRunLog;
  usedFallback: boolean;
}
