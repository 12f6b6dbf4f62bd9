/** The agent: a tool-calling loop with approvals, caps and a fallback for servers without tool calls. */
export { AgentLoop, type AgentLoopDependencies, type AgentRunRequest, type AgentRunResult } from './agentLoop';
export { createAgent, type AgentSettings } from './createAgent';
export { AgentToolSet, type OpenAiFunctionTool } from './agentToolSet';
export { DEFAULT_AGENT_CAPS, DEFAULT_OUTPUT_LIMITS, type AgentCaps, type AgentOutputLimits } from './agentCaps';
export type { AgentEvent, AgentEventBody, AgentEventListener, AgentStopReason, ApprovalSource, ToolCallStatus } from './agentEvents';
export { AgentRunRecorder, type AgentIterationRecord, type AgentRunLog, type AgentToolCallRecord } from './agentRunLog';
export {
  ConversationApprovals,
  denyingGate,
  ToolApprovals,
  type ApprovalDecision,
  type ApprovalDecisionKind,
  type ApprovalGate,
  type ApprovalRequest,
} from './approvalGate';
export { AutoApprovalPolicy, isCompoundCommand, type ApprovableKind, type AutoApprovalSettings, type SettingLayer, type SettingOrigin } from './autoApprovalPolicy';
export { modelAdapterFor, modelFamilyOf, type ModelAdapterSettings, type ModelFamily } from './modelAdapters';
export type { AgentChatModel } from './streamTurn';
export { ToolProtocolMemory, isToolProtocolSetting, TOOL_PROTOCOL_SETTINGS, type ToolProtocolSetting } from './textProtocol';
export type { AgentFilter } from '../subagents/agentFilter';
