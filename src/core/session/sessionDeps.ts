import type { ToolProtocolMemory } from '../agent';
import type { CodewikiEngine } from '../codewikiEngine';
import type { StateManager } from '../history';
import type { ModelProvider } from '../llm/modelProvider';
import { DEFAULT_AGENT_MODE_SETTINGS, type AgentModeSettings } from './agentModeSettings';
import type { SessionListener } from './sessionEvents';

export interface SessionDeps {
  history: StateManager;
  /** Read on every turn, so settings and key changes apply to the next request. */
  models(): ModelProvider;
  /** The engine for the current workspace; undefined when action prompts are unavailable (with the reason). */
  engine(): Promise<{ engine?: CodewikiEngine; unavailable?: string }>;
  runLogDir: string;
  post: SessionListener;
  /**
   * Agent mode's user-level settings, read on every turn. Return the same object until the settings
   * change: the agent (and its tool definitions) is rebuilt only when this or the engine changes.
   */
  agentSettings?(): AgentModeSettings;
  /** Where `toolProtocol: auto` remembers its switches to the text protocol (the extension keeps it in global storage). */
  toolProtocolMemory?: ToolProtocolMemory;
}

export function agentSettingsOf(deps: SessionDeps): AgentModeSettings {
  return deps.agentSettings?.() ?? DEFAULT_AGENT_MODE_SETTINGS;
}
