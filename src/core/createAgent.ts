import type { CodewikiEngine } from './codewikiEngine';
import { agentToolConfigurable } from './subagents/agentCallablePrompts';
import { subagentExclusion, type AgentFilter } from './subagents/agentFilter';
import { SubagentHostLoop } from './subagents/subagentRunner';
import { DEFAULT_TOOL_TOGGLES, type ToolToggles } from './tools/toolToggles';
import { DEFAULT_AGENT_CAPS, type AgentCaps, type AgentOutputLimits } from './agent/agentCaps';
import type { AgentLoop } from './agent/agentLoop';
import { AgentToolSet, type ToolExclusion } from './agent/agentToolSet';
import { startsFromIndex, usesCompactTools } from './agent/compactToolSet';
import { ConversationApprovals, ToolApprovals, type ApprovalGate } from './agent/approvalGate';
import { AutoApprovalPolicy } from './agent/autoApprovalPolicy';
import type { ModelAdapterSettings } from './agent/modelAdapters';
import type { AgentChatModel } from './agent/streamTurn';
import type { ToolProtocolSetting } from './agent/textProtocol/toolProtocol';
import type { ToolProtocolMemory } from './agent/textProtocol/toolProtocolMemory';

/** The user's agent settings. Everything here comes from user-level settings or CLI flags, never from the workspace. */
export interface AgentSettings {
  /** Asks the user about write and execute calls the policy does not cover. */
  gate: ApprovalGate;
  /** Built with AutoApprovalPolicy's factories; nothing is auto-approved when absent. */
  approvalPolicy?: AutoApprovalPolicy;
  /** Keep one per window so "allow in this conversation" lasts across turns. */
  approvalMemory?: ConversationApprovals;
  toggles?: ToolToggles;
  caps?: Partial<AgentCaps>;
  limits?: Partial<AgentOutputLimits>;
  adapter?: ModelAdapterSettings;
  /**
   * Which sub-agents (agent definitions, engine.agents) are offered: absent offers none, `{}` every
   * loaded one; `allow` keeps only those, `exclude` removes those. From user settings, like the rest.
   */
  agents?: AgentFilter;
  /** `codewiki.agent.toolProtocol` / `--tool-protocol` (default `auto`); see textProtocol/toolProtocol.ts. */
  toolProtocol?: ToolProtocolSetting;
  /** Keep one per window (the extension persists it) so `auto`'s switch to text lasts across turns and conversations. */
  protocolMemory?: ToolProtocolMemory;
  /** False: no repo map in the system prompt and no candidates with the question (`codewiki ask --no-index`). Default true. */
  useCodeIndex?: boolean;
}

/**
 * An agent over an engine's workspace, tools and models: the main model answers, the tool model
 * plans for the fallback. Build one per settings change and reuse it for every run; the tool
 * definitions are built here, once. This is the composition tier (docs/architecture.md): the one place
 * where the loop (agent/) meets the sub-agents (subagents/), which are tools registered above it.
 */
export function createAgent(engine: CodewikiEngine, settings: AgentSettings): AgentLoop {
  const toggles = settings.toggles ?? DEFAULT_TOOL_TOGGLES;
  const approvalPolicy = settings.approvalPolicy ?? AutoApprovalPolicy.none();
  const approvalMemory = settings.approvalMemory ?? new ConversationApprovals();
  // Action prompts the agent calls (agent_callable: true) run through the engine's executor.
  const toolConfigurable = agentToolConfigurable(engine);
  const deps = {
    model: engine.models.model('main') as unknown as AgentChatModel,
    modelName: engine.models.modelName('main'),
    planningModel: engine.models.model('tool') as unknown as AgentChatModel,
    tools: AgentToolSet.create(engine.agentRegistry, toggles, withoutReadWikiUntilThereIsOne(engine, subagentExclusion(settings.agents)), {
      compact: usesCompactTools(
        engine.models.modelName('main'),
        settings.adapter?.toolSet,
        settings.useCodeIndex !== false && startsFromIndex(engine.codeIndex),
      ),
    }),
    approvals: new ToolApprovals(settings.gate, approvalPolicy, approvalMemory),
    workspace: engine.workspace,
    codeIndex: settings.useCodeIndex === false ? undefined : engine.codeIndex,
    wiki: settings.useCodeIndex === false ? undefined : engine.wiki,
    caps: settings.caps,
    limits: settings.limits,
    adapter: settings.adapter,
    describeModelError: (error: unknown) => engine.models.describeError(error, 'main'),
    toolConfigurable,
    toolProtocol: settings.toolProtocol,
    protocolMemory: settings.protocolMemory,
    endpoint: engine.models.endpoint?.('main'),
  };
  // Sub-agents share the gate, the policy, the conversation's approvals and the token budget.
  return new SubagentHostLoop(deps, {
    registry: engine.agentRegistry,
    models: engine.models,
    workspace: engine.workspace,
    gate: settings.gate,
    approvalPolicy,
    approvalMemory,
    toggles,
    caps: { ...DEFAULT_AGENT_CAPS, ...settings.caps },
    limits: settings.limits,
    adapter: settings.adapter,
    toolConfigurable,
  });
}

/**
 * read_wiki is offered once the workspace has a wiki: before, its page is the index's structure, which repo_map and
 * search_code already give, and every tool offered is prompt a small model pays for and may pick instead of a better
 * one (the real-model tier's default model stopped calling tools when it was offered without a wiki).
 */
function withoutReadWikiUntilThereIsOne(engine: CodewikiEngine, exclude: ToolExclusion): ToolExclusion {
  const hasWiki = engine.wiki.exists();
  return (entry) =>
    exclude(entry) ?? (!hasWiki && entry.metadata.name === 'read_wiki' ? 'the workspace has no wiki yet (CodeWiki: Generate Wiki writes it)' : undefined);
}
