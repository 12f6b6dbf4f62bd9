import type { ToolExclusion } from '../agent/agentToolSet';
import { isSubagentTool, SUBAGENTS_NOT_ENABLED } from './subagentTool';

/**
 * Which sub-agents the agent is offered, from the user's settings (the extension) or flags (the
 * CLI). `allow` absent means every loaded one; `exclude` wins over `allow`.
 */
export interface AgentFilter {
  allow?: readonly string[];
  exclude?: readonly string[];
}

function agentFilterAllows(filter: AgentFilter, name: string): boolean {
  if (filter.exclude?.includes(name)) return false;
  return filter.allow === undefined || filter.allow.includes(name);
}

/** The default for a tool set nobody configured sub-agents for: it offers none. */
export const withoutSubagents: ToolExclusion = (entry) => (isSubagentTool(entry.tool) ? SUBAGENTS_NOT_ENABLED : undefined);

/** Offers the sub-agents `filter` lets through; without a filter, none. Other tools are left to the toggles. */
export function subagentExclusion(filter: AgentFilter | undefined): ToolExclusion {
  if (!filter) return withoutSubagents;
  return (entry) => {
    if (!isSubagentTool(entry.tool) || agentFilterAllows(filter, entry.metadata.name)) return undefined;
    return 'this sub-agent is excluded by the agents setting';
  };
}

/** A sub-agent's own tools: its allow-list and nothing else (sub-agents never nest). */
export function allowListExclusion(agentName: string, allowList: readonly string[]): ToolExclusion {
  const allowed = new Set(allowList);
  return (entry) => {
    if (isSubagentTool(entry.tool)) return 'a sub-agent cannot call another sub-agent';
    return allowed.has(entry.metadata.name) ? undefined : `it is not in the tools of the sub-agent "${agentName}"`;
  };
}
