import { ToolProtocolMemory, type AgentLoop, type ApprovalGate, type ConversationApprovals } from '../agent';
import { createAgent } from '../createAgent';
import type { CodewikiEngine } from '../codewikiEngine';
import { approvalPolicyFor, type AgentModeSettings } from './agentModeSettings';
import { TOOL_OUTPUT_MAX_CHARS } from './agentTurnRecorder';

/**
 * The session's agent: one per engine and settings object, so the tool definitions and the
 * approval policy are built when either changes, not on every turn. The gate and the "allow in
 * this conversation" memory are the session's and outlive every rebuild.
 */
export class SessionAgents {
  private prepared: { engine: CodewikiEngine; settings: AgentModeSettings; notes: string[]; build(): AgentLoop; loop?: AgentLoop } | undefined;

  constructor(
    private readonly gate: ApprovalGate,
    private readonly memory: ConversationApprovals,
    /** What `toolProtocol: auto` learned per model and endpoint; outlives every rebuild. */
    private readonly protocolMemory: ToolProtocolMemory = new ToolProtocolMemory(),
  ) {}

  /** Throws when the engine has no main model configured; the turn reports it. */
  agent(engine: CodewikiEngine, settings: AgentModeSettings): AgentLoop {
    const prepared = this.prepare(engine, settings);
    return (prepared.loop ??= prepared.build());
  }

  /** Settings problems to show on each turn (ignored or malformed values), without building a model. */
  notes(engine: CodewikiEngine, settings: AgentModeSettings): string[] {
    return [...settings.notes, ...this.prepare(engine, settings).notes];
  }

  private prepare(engine: CodewikiEngine, settings: AgentModeSettings) {
    if (this.prepared?.engine === engine && this.prepared.settings === settings) return this.prepared;
    const tools = engine.agentRegistry.list().map(({ metadata }) => ({ name: metadata.name, kind: metadata.kind }));
    const { policy, notes } = approvalPolicyFor(settings, tools);
    const build = () =>
      createAgent(engine, {
        gate: this.gate,
        approvalPolicy: policy,
        approvalMemory: this.memory,
        toggles: settings.toggles,
        caps: { maxIterations: settings.maxIterations },
        limits: { maxEventOutputChars: TOOL_OUTPUT_MAX_CHARS },
        adapter: settings.adapter,
        agents: settings.subagents,
        toolProtocol: settings.toolProtocol,
        protocolMemory: this.protocolMemory,
      });
    this.prepared = { engine, settings, notes, build };
    return this.prepared;
  }
}
