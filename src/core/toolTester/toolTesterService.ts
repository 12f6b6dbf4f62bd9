import { AgentToolSet } from '../agent/agentToolSet';
import { ConversationApprovals, ToolApprovals, type ApprovalGate } from '../agent/approvalGate';
import type { CodewikiEngine } from '../codewikiEngine';
import type { TransportTuning } from '../llm/createChatModel';
import type { ModelSettings } from '../llm/modelSettings';
import { approvalPolicyFor, type AgentModeSettings } from '../session/agentModeSettings';
import { agentToolConfigurable } from '../subagents/agentCallablePrompts';
import { subagentExclusion } from '../subagents/agentFilter';
import { toolsState } from '../session/toolList';
import type { TesterParse, TesterProbe, TesterRun, TesterState, TesterTool } from '../../shared/toolTesterProtocol';
import { parseManualCall } from './parseManualCall';
import { previewToolPrompt } from './previewToolPrompt';
import { probeServer, type ProbeAttempt } from './probeServer';
import type { RecordedExchange } from './recordingFetch';
import { runManualCall } from './runManualCall';

export interface ToolTesterDeps {
  /** The workspace's engine, or why there is none (Restricted Mode, no folder). */
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  /** Agent mode's user settings: toggles, adapter, sub-agents, auto-approval, protocol. */
  settings(): AgentModeSettings;
  /** The endpoint the probe talks to, or why it cannot (no endpoint, or VS Code's own models). */
  probeTarget(): Promise<ModelSettings | { unavailable: string }>;
  /** Asks the user before a write or execute call runs (the extension: a modal dialog). */
  gate: ApprovalGate;
  /** Tests shrink back-off or swap the transport. */
  tuning?: TransportTuning;
}

/**
 * The tool tester (seed 004) over the agent's own parts: the same registry, toggles, prompt builders,
 * parsers, approvals and runner, so what it shows is what the agent does. Knows nothing of VS Code;
 * the extension's panel only moves its answers to the page.
 */
export class ToolTesterService {
  /** Approvals "for this conversation" given in the tester stay in the tester. */
  private readonly approvalMemory = new ConversationApprovals();

  constructor(private readonly deps: ToolTesterDeps) {}

  async state(): Promise<TesterState> {
    const settings = this.deps.settings();
    const { engine, unavailable } = await this.deps.engine();
    const listed = toolsState(engine?.agentRegistry, settings.toggles, unavailable);
    const model = engine ? engine.models.modelName('main') : '';
    const base = { model: model || 'no model configured', protocolSetting: settings.toolProtocol ?? 'auto', toolsEnabled: listed.enabled };
    if (!engine) return { ...base, tools: [], previews: [], unavailable: listed.unavailable };
    const tools: TesterTool[] = listed.tools.map((tool) => ({ ...tool, schema: engine.agentRegistry.jsonSchema(tool.name) }));
    const previews = await Promise.all(
      (['native', 'text'] as const).map(async (protocol) => {
        const preview = await previewToolPrompt({
          registry: engine.agentRegistry,
          toggles: settings.toggles,
          exclude: subagentExclusion(settings.subagents),
          modelName: model,
          adapter: settings.adapter,
          protocol,
          workspace: engine.workspace,
          codeIndex: engine.codeIndex,
        });
        const toolsJson = preview.tools.length ? JSON.stringify(preview.tools, null, 2) : '';
        return { protocol, family: preview.family, systemPrompt: preview.systemPrompt, toolsJson, toolNames: preview.toolNames };
      }),
    );
    return { ...base, tools, previews };
  }

  /** Whether `name` is a tool the agent may be offered (the switch only exists for those), without building previews. */
  async isAgentCallable(name: string): Promise<boolean> {
    const { engine } = await this.deps.engine();
    return engine?.agentRegistry.get(name)?.metadata.agentCallable ?? false;
  }

  async parse(text: string): Promise<TesterParse> {
    const { engine, tools, policy } = await this.prepared();
    const parsed = await parseManualCall(text, { tools, knownTools: engine.agentRegistry.names(), policy });
    return {
      form: parsed.form,
      error: parsed.error,
      calls: parsed.calls.map((check) => ({
        name: check.call.name,
        args: check.call.args,
        rawArgs: check.call.rawArgs,
        tool: check.tool && { displayName: check.tool.displayName, kind: check.tool.kind, category: check.tool.category },
        valid: check.valid,
        problem: check.problem,
        approval: check.approval,
      })),
    };
  }

  /** Runs call `index` of `text`; an invalid call is not run, its problem is the answer (as the model would get it). */
  async run(text: string, index: number, signal?: AbortSignal): Promise<TesterRun> {
    const { engine, tools, policy } = await this.prepared();
    const parsed = await parseManualCall(text, { tools, knownTools: engine.agentRegistry.names(), policy });
    const check = parsed.calls[index];
    if (!check) throw new Error(parsed.error ?? `There is no call number ${index + 1} in the text.`);
    const approvals = new ToolApprovals(this.deps.gate, policy, this.approvalMemory);
    const result = await runManualCall(check.call, { tools, approvals, signal, configurable: agentToolConfigurable(engine), conversationId: 'tool-tester' });
    return { status: result.status, content: result.content, durationMs: Math.round(result.durationMs) };
  }

  async probe(signal?: AbortSignal): Promise<TesterProbe> {
    const target = await this.deps.probeTarget();
    if ('unavailable' in target) throw new Error(target.unavailable);
    const result = await probeServer(target, { adapter: this.deps.settings().adapter, signal, tuning: this.deps.tuning });
    return {
      model: result.model,
      endpoint: result.endpoint,
      verdict: result.verdict,
      suggestion: result.suggestion === 'auto' ? undefined : result.suggestion,
      summary: result.summary,
      attempts: [shownAttempt(result.native), shownAttempt(result.text)],
    };
  }

  private async prepared() {
    const settings = this.deps.settings();
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) throw new Error(unavailable ?? 'No workspace tools are available.');
    const tools = AgentToolSet.create(engine.agentRegistry, settings.toggles, subagentExclusion(settings.subagents));
    const kinds = engine.agentRegistry.list().map(({ metadata }) => ({ name: metadata.name, kind: metadata.kind }));
    return { engine, tools, policy: approvalPolicyFor(settings, kinds).policy };
  }
}

function shownAttempt(attempt: ProbeAttempt) {
  return {
    protocol: attempt.protocol,
    outcome: attempt.outcome,
    works: attempt.works,
    detail: attempt.detail,
    answer: attempt.answer,
    exchanges: attempt.exchanges.map(exchangeText),
  };
}

/** One exchange as the tester shows it: the request as sent (key removed), then the response as received. */
function exchangeText(exchange: RecordedExchange): string {
  const headers = Object.entries(exchange.requestHeaders).map(([name, value]) => `${name}: ${value}`);
  const response = exchange.status === undefined ? '(no response)' : `HTTP ${exchange.status}`;
  return [
    `${exchange.method} ${exchange.url}`,
    ...headers,
    '',
    pretty(exchange.requestBody),
    '',
    `→ ${response}${exchange.error ? ` (${exchange.error})` : ''}`,
    exchange.responseBody ?? '',
  ]
    .join('\n')
    .trimEnd();
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
