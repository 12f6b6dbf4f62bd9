import { join } from 'node:path';
import { z } from 'zod';
import { createAgent, type AgentSettings } from '../../src/core/createAgent';
import type { AgentEvent } from '../../src/core/agent/agentEvents';
import type { AgentRunRequest, AgentRunResult } from '../../src/core/agent/agentLoop';
import type { ApprovalDecision, ApprovalGate, ApprovalRequest } from '../../src/core/agent/approvalGate';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { codewikiTool } from '../../src/core/tools/codewikiTool';
import type { ToolKind } from '../../src/core/tools/toolMetadata';
import { sleep } from '../../src/core/util/abort';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer, type Turn } from '../support/openaiServer';

export const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

/** A gate that answers from a script and records what it was asked. */
export class ScriptedGate implements ApprovalGate {
  readonly requests: ApprovalRequest[] = [];

  constructor(private readonly answers: Array<ApprovalDecision | ((request: ApprovalRequest) => ApprovalDecision)> = []) {}

  async request(approval: ApprovalRequest): Promise<ApprovalDecision> {
    this.requests.push(approval);
    const next = this.answers.shift();
    if (!next) throw new Error(`ScriptedGate: no answer scripted for ${approval.tool}`);
    return typeof next === 'function' ? next(approval) : next;
  }
}

/** Counts concurrent runs of the `probe_read` test tool. */
export class ConcurrencyProbe {
  running = 0;
  peak = 0;
  calls: string[] = [];
}

/**
 * A real workspace folder, a scripted OpenAI server, the engine over both (real ChatOpenAI client),
 * and an agent built the way the CLI and the extension build it.
 */
export class AgentFixture {
  readonly server: OpenAiTestServer;
  readonly events: AgentEvent[] = [];
  readonly probe = new ConcurrencyProbe();
  engine!: CodewikiEngine;
  private readonly ws: ReturnType<typeof tempWorkspace>;

  constructor(files: Record<string, string> = {}, script: Turn[] = []) {
    this.ws = tempWorkspace(files);
    this.server = new OpenAiTestServer(script);
  }

  get root(): string {
    return this.ws.root;
  }

  async start(): Promise<this> {
    await this.server.start();
    const models = new OpenAiModelProvider({ baseURL: this.server.url, model: 'test-model', timeoutMs: 5_000, maxRetries: 0 }, {});
    this.engine = await createCodewikiEngine({ workspaceRoot: this.root, builtinPromptsDir: BUILTIN, models });
    return this;
  }

  /** Registers `probe_read` (read, waits `ms` then returns its name) and `probe_write` (write, no preview) on the agent registry. */
  addProbeTools(): this {
    const probe = this.probe;
    const register = (name: string, kind: ToolKind) =>
      this.engine.agentRegistry.register(
        codewikiTool(
          async ({ id, ms }, config) => {
            probe.calls.push(`${name}:${id}`);
            probe.running++;
            probe.peak = Math.max(probe.peak, probe.running);
            try {
              await sleep(ms ?? 40, config?.signal);
              return `${name} ${id} done`;
            } finally {
              probe.running--;
            }
          },
          { name, description: `Test tool (${kind})`, schema: z.object({ id: z.string(), ms: z.number().optional() }) },
        ),
        { kind, category: 'custom', displayName: name, timeoutMs: 5_000, agentCallable: true },
      );
    register('probe_read', 'read');
    register('probe_write', 'write');
    return this;
  }

  /**
   * One agent run. The code index is off unless `settings.useCodeIndex` is true: with it every run starts with
   * a search_code call of CodeWiki's own (test/codebaseIndex covers that), which would only get in the way of
   * tests about other parts of the loop.
   */
  async ask(question: string, settings: Partial<AgentSettings> = {}, request: Partial<AgentRunRequest> = {}): Promise<AgentRunResult> {
    const agent = createAgent(this.engine, { gate: settings.gate ?? new ScriptedGate(), ...settings, useCodeIndex: settings.useCodeIndex ?? false });
    return agent.run({ question, conversationId: 'conv-1', onEvent: (event) => this.events.push(event), ...request });
  }

  eventsOf<T extends AgentEvent['type']>(type: T): Array<Extract<AgentEvent, { type: T }>> {
    return this.events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
  }

  /** The `role: "tool"` messages of request `index`. */
  toolMessages(index: number) {
    return this.server.messagesOf(index).filter((message) => message.role === 'tool');
  }

  async close(): Promise<void> {
    await this.server.close();
    this.ws.cleanup();
  }
}

export function toolText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part as { text?: string }).text ?? '').join('');
  return '';
}
