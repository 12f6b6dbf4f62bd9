import type { AgentFilter } from '../subagents/agentFilter';
import { z } from 'zod';
import { AutoApprovalPolicy, type SettingLayer, type SettingOrigin } from '../agent/autoApprovalPolicy';
import type { ModelAdapterSettings } from '../agent/modelAdapters';
import { TOOL_PROTOCOL_SETTINGS, type ToolProtocolSetting } from '../agent/textProtocol/toolProtocol';
import type { ToolKind } from '../tools/toolMetadata';
import { DEFAULT_TOOL_TOGGLES, type ToolToggles } from '../tools/toolToggles';
import type { ChatMode } from '../../shared/protocol';

/** The shape of VS Code's `WorkspaceConfiguration.inspect()`, so the core reads settings without `vscode`. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/** Reads one `codewiki.*` setting by its key without the prefix, e.g. `agent.autoApprove`. */
export type SettingInspector = (key: string) => InspectedSetting | undefined;

/**
 * Agent mode's settings, all read from the user layer only (security promise #8): tool toggles can
 * offer tools, adapters change the system prompt and auto-approval runs tools unasked, so a
 * repository's `.vscode/settings.json` must not set any of them. package.json declares them
 * `application`-scoped as well; reading `globalValue` here keeps that true even if it did not.
 */
export interface AgentModeSettings {
  mode: ChatMode;
  toggles: ToolToggles;
  maxIterations: number;
  adapter?: ModelAdapterSettings;
  /** `codewiki.agent.subagents`: which sub-agents agent mode offers (all by default). */
  subagents: AgentFilter;
  /** `codewiki.agent.toolProtocol`: native tool calls, the text protocol, or `auto` (also when absent). */
  toolProtocol?: ToolProtocolSetting;
  /** `codewiki.agent.autoApprove` and `codewiki.agent.commandAllowList` as inspected; see `approvalPolicyFor`. */
  autoApprove?: InspectedSetting;
  commandAllowList?: InspectedSetting;
  /**
   * `codewiki.agent.prefillWhileTyping`: a question the user pauses over is computed ahead on a llama-server on this
   * machine (draftWarmup.ts), so the answer starts at once on Enter. On by default (also when absent).
   */
  prefillDrafts?: boolean;
  /** Settings that were ignored, in words for the user (shown as warnings on each agent turn). */
  notes: string[];
}

export const DEFAULT_AGENT_MODE_SETTINGS: Readonly<AgentModeSettings> = Object.freeze({
  mode: 'agent',
  toggles: DEFAULT_TOOL_TOGGLES,
  maxIterations: 12,
  subagents: {},
  toolProtocol: 'auto',
  prefillDrafts: true,
  notes: [],
});

const FAMILIES = ['gpt', 'claude', 'qwen', 'llama', 'gemma', 'deepseek', 'default'] as const;
const adapterSchema = z.strictObject({
  family: z.enum(FAMILIES).optional(),
  toolSet: z.enum(['auto', 'compact', 'full']).optional(),
  guidance: z.partialRecord(z.enum(FAMILIES), z.string().max(4000)).optional(),
});
const autoApproveSchema = z.strictObject({
  write: z.boolean().optional(),
  execute: z.boolean().optional(),
  tools: z.record(z.string().min(1), z.boolean()).optional(),
});
const commandListSchema = z.array(z.string().min(1).max(1000)).max(500);

export function readAgentModeSettings(inspect: SettingInspector): AgentModeSettings {
  const notes: string[] = [];
  const user = <T>(key: string, schema: z.ZodType<T>, fallback: T): T => {
    const inspected = inspect(key);
    const value = inspected?.globalValue ?? inspected?.defaultValue;
    if (value === undefined) return fallback;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    notes.push(`codewiki.${key} was ignored: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    return fallback;
  };
  const toggles: ToolToggles = {
    enabled: user('tools.enabled', z.boolean(), true),
    perTool: user('tools.toggles', z.record(z.string(), z.boolean()), {}),
    defaultForNewTools: user('tools.enableNewTools', z.boolean(), true),
  };
  return {
    mode: user('chat.mode', z.enum(['agent', 'chat']), 'agent'),
    toggles,
    maxIterations: user('agent.maxIterations', z.number().int().min(1).max(100), 12),
    adapter: user<ModelAdapterSettings | undefined>('agent.modelAdapters', adapterSchema, undefined),
    subagents: user('agent.subagents', z.strictObject({ allow: z.array(z.string()).optional(), exclude: z.array(z.string()).optional() }), {}),
    toolProtocol: user('agent.toolProtocol', z.enum(TOOL_PROTOCOL_SETTINGS as [ToolProtocolSetting, ...ToolProtocolSetting[]]), 'auto'),
    autoApprove: inspect('agent.autoApprove'),
    commandAllowList: inspect('agent.commandAllowList'),
    prefillDrafts: user('agent.prefillWhileTyping', z.boolean(), true),
    notes,
  };
}

/**
 * The auto-approval policy from `codewiki.agent.autoApprove` (`{ write?, execute?, tools?: { name: bool } }`)
 * and `codewiki.agent.commandAllowList`. Workspace and folder values are passed on only to be named
 * and ignored by AutoApprovalPolicy. A tool set to `false` asks even when its kind is auto-approved,
 * so the kind grant is spelled out as the other tools of that kind (hence `tools`, the registry's).
 */
export function approvalPolicyFor(
  settings: Pick<AgentModeSettings, 'autoApprove' | 'commandAllowList'>,
  tools: ReadonlyArray<{ name: string; kind: ToolKind }>,
): { policy: AutoApprovalPolicy; notes: string[] } {
  const notes: string[] = [];
  const layers: SettingLayer[] = [];
  const origins: Array<[SettingOrigin, keyof InspectedSetting]> = [
    ['default', 'defaultValue'],
    ['user', 'globalValue'],
    ['workspace', 'workspaceValue'],
    ['workspace-folder', 'workspaceFolderValue'],
  ];
  for (const [origin, field] of origins) {
    const approve = settings.autoApprove?.[field];
    const commands = settings.commandAllowList?.[field];
    if (approve === undefined && commands === undefined) continue;
    if (origin === 'workspace' || origin === 'workspace-folder') {
      layers.push({ origin, value: { approve, commands } }); // only reported as ignored
      continue;
    }
    layers.push({ origin, value: userLayer(origin, approve, commands, tools, notes) });
  }
  return { policy: AutoApprovalPolicy.fromSettingLayers(layers), notes };
}

function userLayer(origin: SettingOrigin, approve: unknown, commands: unknown, tools: ReadonlyArray<{ name: string; kind: ToolKind }>, notes: string[]) {
  const where = origin === 'default' ? 'default' : 'user';
  const value: { kinds: Array<'write' | 'execute'>; tools: string[]; commands: string[] } = { kinds: [], tools: [], commands: [] };
  if (approve !== undefined) {
    const parsed = autoApproveSchema.safeParse(approve);
    if (!parsed.success) notes.push(`codewiki.agent.autoApprove (${where} settings) was ignored: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    else {
      const perTool = parsed.data.tools ?? {};
      const refused = new Set(Object.keys(perTool).filter((name) => perTool[name] === false));
      value.tools.push(...Object.keys(perTool).filter((name) => perTool[name] === true));
      for (const kind of ['write', 'execute'] as const) {
        if (!parsed.data[kind]) continue;
        const ofKind = tools.filter((tool) => tool.kind === kind);
        if (ofKind.some((tool) => refused.has(tool.name))) value.tools.push(...ofKind.filter((tool) => !refused.has(tool.name)).map((tool) => tool.name));
        else value.kinds.push(kind);
      }
    }
  }
  if (commands !== undefined) {
    const parsed = commandListSchema.safeParse(commands);
    if (!parsed.success) notes.push(`codewiki.agent.commandAllowList (${where} settings) was ignored: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
    else value.commands.push(...parsed.data);
  }
  return value;
}
