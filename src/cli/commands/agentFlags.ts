import { isToolProtocolSetting, TOOL_PROTOCOL_SETTINGS, type ToolProtocolSetting } from '../../core/agent';
import type { AgentFilter } from '../../core/subagents/agentFilter';
import { NO_TOOLS, onlyTools, type ToolToggles } from '../../core/tools/toolToggles';
import { CliError } from '../cliErrors';

/**
 * The flags that decide what the agent is offered, read once for `codewiki ask` and
 * `codewiki tools --preview`, so the preview shows exactly what `ask` would send.
 */

/** `--tools a,b` / `--no-tools`; undefined leaves the default toggles. Unknown names are a usage error. */
export function togglesFrom(list: string | undefined, noTools: boolean, known: string[]): ToolToggles | undefined {
  if (noTools && list !== undefined) throw new CliError('--tools and --no-tools cannot be combined');
  if (noTools) return NO_TOOLS;
  if (list === undefined) return undefined;
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length) throw new CliError(`--tools: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; run "codewiki tools" to see them`);
  return onlyTools(names);
}

/** Sub-agents are offered in the CLI unless the flags say otherwise; names are checked like --tools. */
export function agentFilterFrom(allow: string | undefined, exclude: string | undefined, known: string[]): AgentFilter {
  const names = (list: string | undefined, flag: string) => {
    if (list === undefined) return undefined;
    const given = list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = given.filter((name) => !known.includes(name));
    if (unknown.length)
      throw new CliError(`${flag}: unknown sub-agent${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known: ${known.join(', ') || '(none)'}`);
    return given;
  };
  return { allow: names(allow, '--agents'), exclude: names(exclude, '--exclude-agents') };
}

export function toolProtocolFrom(
  value: string | undefined,
  flag = '--tool-protocol',
  allowed: readonly ToolProtocolSetting[] = TOOL_PROTOCOL_SETTINGS,
): ToolProtocolSetting | undefined {
  if (value === undefined || (isToolProtocolSetting(value) && allowed.includes(value))) return value;
  throw new CliError(`${flag} ${value}: expected ${allowed.join(', ')}`);
}
