import type { RunnableConfig } from '@langchain/core/runnables';
import type { AgentCaps, AgentOutputLimits } from '../agent/agentCaps';
import type { AgentEvent, AgentEventListener } from '../agent/agentEvents';
import { AgentLoop, type AgentLoopDependencies, type AgentRunRequest, type AgentRunResult } from '../agent/agentLoop';
import { AgentToolSet } from '../agent/agentToolSet';
import { ToolApprovals, type ApprovalGate, type ConversationApprovals } from '../agent/approvalGate';
import type { AutoApprovalPolicy } from '../agent/autoApprovalPolicy';
import { modelAdapterFor, type ModelAdapterSettings } from '../agent/modelAdapters';
import type { AgentChatModel } from '../agent/streamTurn';
import { folderPathsNote, workspaceName } from '../agent/systemPrompt';
import type { ModelProvider } from '../llm/modelProvider';
import type { ToolRegistry } from '../tools/toolRegistry';
import type { ToolToggles } from '../tools/toolToggles';
import type { ModelRole } from '../llm/modelRoles';
import { abortReason } from '../util/abort';
import type { Workspace } from '../workspace/workspace';
import { usageCollectorIn } from './agentCallablePrompts';
import { allowListExclusion } from './agentFilter';
import { renderTask } from './agentInputs';
import type { CompiledAgentDefinition } from './compiledAgentDefinition';
import { oneAtATime } from './oneAtATimeGate';
import { buildSubagentSystemPrompt, withSystemPrompt } from './subagentPrompt';
import { runWithSubagentHost, SUBAGENT_TIMEOUT_MS, type SubagentHost } from './subagentTool';

/** Tool-calling turns of a sub-agent whose definition does not say. */
const DEFAULT_SUBAGENT_ITERATIONS = 10;
/** A sub-agent's own wall clock: shorter than its tool deadline, so a slow one still ends with its best answer. */
const SUBAGENT_WALL_CLOCK_MS = SUBAGENT_TIMEOUT_MS - 90_000;

/** What every sub-agent of one agent shares with it: built once per createAgent, i.e. per settings change. */
export interface SubagentServices {
  registry: ToolRegistry;
  models: ModelProvider;
  workspace: Workspace;
  /** The calling agent's gate, user policy and conversation memory: a sub-agent approves nothing by itself. */
  gate: ApprovalGate;
  approvalPolicy: AutoApprovalPolicy;
  approvalMemory: ConversationApprovals;
  toggles: ToolToggles;
  /** The calling agent's caps; its token budget is shared with its sub-agents. */
  caps: AgentCaps;
  limits?: Partial<AgentOutputLimits>;
  adapter?: ModelAdapterSettings;
  toolConfigurable?: Record<string, unknown>;
}

/**
 * The agent createAgent builds: an AgentLoop whose runs can host sub-agents. Each run gets its own
 * scope (its listener, conversation and token meter), which the sub-agent tools find through the
 * run's async context.
 */
export class SubagentHostLoop extends AgentLoop {
  private readonly toolSets = new Map<string, AgentToolSet>();

  constructor(
    deps: AgentLoopDependencies,
    private readonly services: SubagentServices,
  ) {
    super(deps);
  }

  override run(request: AgentRunRequest): Promise<AgentRunResult> {
    const scope = new SubagentRunScope(this.services, request, (definition) => this.toolSetFor(definition));
    return runWithSubagentHost(scope, () => super.run({ ...request, onEvent: scope.listener }));
  }

  /** Built once per definition, like the agent's own set: the wire schemas are not rebuilt per call. */
  private toolSetFor(definition: CompiledAgentDefinition): AgentToolSet {
    let set = this.toolSets.get(definition.name);
    if (!set) {
      // The user's explicit "off" still holds inside a sub-agent; its allow-list decides the rest.
      const toggles = { ...this.services.toggles, defaultForNewTools: true };
      set = AgentToolSet.create(this.services.registry, toggles, allowListExclusion(definition.name, definition.tools));
      this.toolSets.set(definition.name, set);
    }
    return set;
  }
}

/** Inside a sub-agent, a sub-agent tool refuses (the allow-lists already prevent it; this is the backstop). */
const NO_NESTING: SubagentHost = {
  run: async (definition) => {
    throw new Error(`a sub-agent cannot call another sub-agent ("${definition.name}")`);
  },
};

/** One agent run's sub-agents: their events join the run's, and their tokens its budget. */
class SubagentRunScope implements SubagentHost {
  /** Tokens of the whole run so far, sub-agents still running included. */
  private spent = 0;
  /** Ids of this run's own calls that started a sub-agent: their totals arrive as nested events already. */
  private readonly subagentCalls = new Set<string>();
  /** Shared by this run's sub-agents, which may run side by side: their questions queue. */
  private readonly approvals: ToolApprovals;
  readonly listener: AgentEventListener;

  constructor(
    private readonly services: SubagentServices,
    private readonly request: AgentRunRequest,
    private readonly toolSetFor: (definition: CompiledAgentDefinition) => AgentToolSet,
  ) {
    this.listener = (event) => {
      this.meter(event);
      request.onEvent?.(event);
    };
    this.approvals = new ToolApprovals(oneAtATime(services.gate), services.approvalPolicy, services.approvalMemory);
  }

  async run(definition: CompiledAgentDefinition, inputs: Record<string, unknown>, config: RunnableConfig): Promise<string> {
    const callId = config.runName ?? `${definition.name}_call`;
    this.subagentCalls.add(callId);
    const tokenBudget = this.services.caps.tokenBudget - this.spent;
    if (tokenBudget <= 0) throw new Error(`not run: the run has used up its budget of ${this.services.caps.tokenBudget.toLocaleString('en-US')} tokens`);

    const loop = this.loopFor(definition, inputs, tokenBudget);
    const result = await runWithSubagentHost(NO_NESTING, () =>
      loop.run({
        question: renderTask(definition.inputs, inputs),
        conversationId: this.request.conversationId,
        signal: config.signal,
        onEvent: this.listener,
        parentCallId: callId,
      }),
    );
    // The calling tool call carries the sub-agent's tokens, so they reach the parent's total and budget.
    usageCollectorIn(config)?.record(result.tokens);
    if (config.signal?.aborted) throw abortReason(config.signal);
    if (result.stopReason === 'cancelled') throw Object.assign(new Error(`${definition.name} was cancelled`), { name: 'AbortError' });
    if (result.stopReason === 'failed') throw new Error(`the sub-agent ${definition.name} failed: ${result.error ?? 'unknown error'}`);
    return result.answer.trim() || `(${definition.name} finished without an answer)`;
  }

  private loopFor(definition: CompiledAgentDefinition, inputs: Record<string, unknown>, tokenBudget: number): AgentLoop {
    const { services } = this;
    const tools = this.toolSetFor(definition);
    const { role, name } = modelChoice(definition.model);
    const model = services.models.model(role, name) as unknown as AgentChatModel;
    const modelName = services.models.modelName(role, name);
    const system = buildSubagentSystemPrompt({
      definition,
      inputs,
      workspaceName: workspaceName(services.workspace),
      folders: folderPathsNote(services.workspace),
      tools: tools.names,
      guidance: modelAdapterFor(modelName, services.adapter).guidance,
    });
    return new AgentLoop({
      model: withSystemPrompt(model, system),
      modelName,
      planningModel: model,
      tools,
      approvals: this.approvals,
      caps: {
        maxIterations: definition.maxIterations ?? DEFAULT_SUBAGENT_ITERATIONS,
        wallClockMs: Math.min(services.caps.wallClockMs, SUBAGENT_WALL_CLOCK_MS),
        tokenBudget,
        maxIdenticalCalls: services.caps.maxIdenticalCalls,
      },
      limits: services.limits,
      adapter: services.adapter,
      describeModelError: (error) => services.models.describeError(error, role),
      toolConfigurable: services.toolConfigurable,
      // withSystemPrompt replaces the loop's system prompt, where the text protocol's definitions would
      // go; sub-agents therefore stay native and keep the plan-then-answer fallback.
      toolProtocol: 'native',
    });
  }

  /**
   * Counts every model turn of the run and its sub-agents, and every tool call's own tokens except
   * a sub-agent call's, whose tokens were already counted turn by turn inside it.
   */
  private meter(event: AgentEvent): void {
    if (event.type === 'turn-end') this.spent += event.tokens.total;
    else if (event.type === 'tool-call-end' && !(event.parentCallId === this.request.parentCallId && this.subagentCalls.has(event.id)))
      this.spent += event.tokens.total;
  }
}

function modelChoice(model: string | undefined): { role: ModelRole; name?: string } {
  if (model === undefined || model === 'main') return { role: 'main' };
  if (model === 'tool') return { role: 'tool' };
  return { role: 'main', name: model };
}
