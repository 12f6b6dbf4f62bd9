/**
 * The agent: a tool-calling loop with approvals, caps and a fallback for servers without tool calls. It is built by
 * createAgent (src/core/createAgent.ts), which also lets in sub-agents: they are tools above the loop, which never
 * imports them.
 */
export { AgentLoop, type AgentLoopDependencies, type AgentRunRequest, type AgentRunResult } from './agentLoop';
export { AgentToolSet, type OpenAiFunctionTool } from './agentToolSet';
export { DEFAULT_AGENT_CAPS, DEFAULT_OUTPUT_LIMITS, type AgentCaps, type AgentOutputLimits } from './agentCaps';
export type { AgentEvent, AgentEventBody, AgentEventListener, AgentStopReason, ApprovalDecisionKind, ApprovalSource, ToolCallStatus } from './agentEvents';
export { AgentRunRecorder, type AgentIterationRecord, type AgentRunLog, type AgentToolCallRecord } from './agentRunLog';
export { ConversationApprovals, denyingGate, ToolApprovals, type ApprovalDecision, type ApprovalGate, type ApprovalRequest } from './approvalGate';
export {
  AutoApprovalPolicy,
  isCompoundCommand,
  type ApprovableKind,
  type AutoApprovalSettings,
  type SettingLayer,
  type SettingOrigin,
} from './autoApprovalPolicy';
export { modelAdapterFor, modelFamilyOf, type ModelAdapterSettings, type ModelFamily } from './modelAdapters';
export type { AgentChatModel } from './streamTurn';
export { ToolProtocolMemory, isToolProtocolSetting, TOOL_PROTOCOL_SETTINGS, type ToolProtocolSetting } from './textProtocol';
