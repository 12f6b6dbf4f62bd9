import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { CodewikiTool } from '../tools/codewikiTool';
import type { OptInTool } from '../tools/toolMetadata';
import type { ToolRegistry } from '../tools/toolRegistry';
import { agentInputsToZod } from './agentInputs';
import type { CompiledAgentDefinition } from './compiledAgentDefinition';

/** Why an agent whose settings enable no sub-agents cannot call one. */
export const SUBAGENTS_NOT_ENABLED = 'sub-agents are not enabled for this agent';

/** A sub-agent's per-call deadline; its own wall clock (subagentRunner.ts) ends it before this one. */
export const SUBAGENT_TIMEOUT_MS = 10 * 60_000;

/** Runs a sub-agent for one call of its tool, inside the agent run that made the call. */
export interface SubagentHost {
  run(definition: CompiledAgentDefinition, inputs: Record<string, unknown>, config: RunnableConfig): Promise<string>;
}

/**
 * The host of the agent run in progress. A run's listener, conversation and token meter belong to
 * that run, not to the agent object (one agent serves many runs, possibly at once), so they travel
 * with the run's async context, the way LangChain carries its own run context.
 */
const hosts = new AsyncLocalStorage<SubagentHost>();

export function runWithSubagentHost<T>(host: SubagentHost, work: () => T): T {
  return hosts.run(host, work);
}

/**
 * An agent definition as a tool: its schema comes from the definition's inputs, and calling it runs
 * a nested agent loop (seed 003's SubagentToolWrapper). Its kind is `think`: it changes nothing by
 * itself, and every write or execute call inside it still stops at the same approval gate. It is an opt-in
 * tool: an agent's tool set offers it only when the user's agents setting lets it in (agentFilter.ts).
 */
class SubagentTool extends CodewikiTool implements OptInTool {
  readonly optInReason = SUBAGENTS_NOT_ENABLED;

  constructor(readonly definition: CompiledAgentDefinition) {
    super({ name: definition.name, description: definition.description, schema: agentInputsToZod(definition.inputs) }, (input, config) => {
      const host = hosts.getStore();
      if (!host) throw new Error(`the sub-agent "${definition.name}" can only run inside an agent built by createAgent`);
      return host.run(definition, input as Record<string, unknown>, config);
    });
  }
}

export function isSubagentTool(tool: StructuredToolInterface | undefined): tool is SubagentTool {
  return tool instanceof SubagentTool;
}

export function registerSubagentTool(registry: ToolRegistry, definition: CompiledAgentDefinition): void {
  registry.register(new SubagentTool(definition), {
    category: 'llm',
    kind: 'think',
    displayName: displayNameOf(definition.name),
    timeoutMs: SUBAGENT_TIMEOUT_MS,
    agentCallable: true,
  });
}

/**
 * `codebase_investigator` reads as "Codebase investigator", like the built-in tools' names ("Read file"): the
 * name shown on the tool-call row, which at the sidebar's default width has room for about 20 characters.
 */
function displayNameOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}
