import * as vscode from 'vscode';
import type { ModelSettings } from '../core/llm/modelSettings';
import { readAgentModeSettings, type AgentModeSettings } from '../core/session/agentModeSettings';

export interface CodewikiSettings {
  /** `codewiki.provider`: `openai` (an OpenAI-compatible endpoint) or `vscode` (VS Code's language models, vscodeModels/). */
  provider: 'openai' | 'vscode';
  /** `codewiki.vscodeModel`: with provider `vscode`, the model's id, family or name; empty: the first one VS Code offers. */
  vscodeModel: string;
  baseUrl: string;
  model: string;
  toolModel: string;
  temperature: number;
  maxInputTokens: number;
  requestTimeoutSeconds: number;
  promptFolders: string[];
  /** `codewiki.allowSecretFiles`: gitignore-style globs of secret-looking files the file tools may read (user settings only). */
  allowSecretFiles: string[];
  /** `codewiki.dialect.allowedEnv`: the `${env.NAME}` that seed-002 chains may read (user settings only). */
  dialectAllowedEnv: string[];
  /** `codewiki.index.enabled`: the code index (symbols, search, file graph) every answer starts from. */
  indexEnabled: boolean;
  /**
   * Set when the endpoint is the local model: the one scripts/vscode/start.sh started (CODEWIKI_LOCAL_SERVER, e.g.
   * "llama.cpp"), or the one this window started or reused (localModel/extensionLocalModel.ts); only while no
   * endpoint is set in the user settings, which always win.
   */
  localServer?: string;
}

/**
 * User settings first; the CLI's environment variables fill in what is unset, so one
 * configuration serves both. Endpoint and model settings are application-scoped in package.json:
 * only user settings can set them, so a repository's .vscode/settings.json cannot point the user's
 * key at another server. (Not machine scope: in remote windows such as code-server, VS Code drops
 * user-level values of machine-scoped settings once the remote configuration loads.)
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): CodewikiSettings {
  const config = vscode.workspace.getConfiguration('codewiki');
  const configuredUrl = config.get<string>('baseUrl');
  return {
    provider: config.get<string>('provider') === 'vscode' ? 'vscode' : 'openai',
    vscodeModel: config.get<string>('vscodeModel')?.trim() ?? '',
    baseUrl: configuredUrl || env.CODEWIKI_BASE_URL || '',
    localServer: configuredUrl ? undefined : env.CODEWIKI_LOCAL_SERVER || undefined,
    model: config.get<string>('model') || env.CODEWIKI_MODEL || '',
    toolModel: config.get<string>('toolModel') || env.CODEWIKI_TOOL_MODEL || '',
    temperature: config.get<number>('temperature') ?? 0.2,
    maxInputTokens: config.get<number>('maxInputTokens') ?? 24_000,
    requestTimeoutSeconds: config.get<number>('requestTimeoutSeconds') ?? 120,
    promptFolders: config.get<string[]>('promptFolders') ?? [],
    // The user layer only (the setting is application-scoped too): a repository must not un-deny its own secrets.
    allowSecretFiles: stringList(config.inspect<unknown>('allowSecretFiles')?.globalValue),
    // The user layer only, like allowSecretFiles: a workspace must not let its own prompts read the user's environment.
    dialectAllowedEnv: stringList(config.inspect<unknown>('dialect.allowedEnv')?.globalValue),
    indexEnabled: config.get<boolean>('index.enabled') ?? true,
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];
}

/** What the status line shows for the model: `local · NAME (llama.cpp)` for the embedded default, else the name. */
export function modelLabel(settings: CodewikiSettings): string | undefined {
  if (!settings.model) return undefined;
  return settings.localServer ? `local · ${settings.model} (${settings.localServer})` : settings.model;
}

export function isConfigured(settings: CodewikiSettings): boolean {
  return Boolean(settings.baseUrl && settings.model);
}

export function mainModelSettings(settings: CodewikiSettings, apiKey: string | undefined): ModelSettings {
  return {
    baseURL: settings.baseUrl,
    model: settings.model,
    apiKey,
    temperature: settings.temperature,
    timeoutMs: settings.requestTimeoutSeconds * 1000,
  };
}

/** Agent mode's settings, from the user layer only (see readAgentModeSettings). */
export function readAgentSettings(): AgentModeSettings {
  const config = vscode.workspace.getConfiguration('codewiki');
  return readAgentModeSettings((key) => config.inspect(key));
}

/** Settings the chat view and the Tool Tester may change, always in the user settings (never a workspace file). */
export type ViewWritableSetting = 'chat.mode' | 'tools.enabled' | 'tools.toggles' | 'tools.enableNewTools' | 'agent.toolProtocol';

export async function writeUserSetting(key: ViewWritableSetting, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('codewiki').update(key, value, vscode.ConfigurationTarget.Global);
}

/** The user-level value of an object setting, e.g. `tools.toggles`, for a read-modify-write. */
export function userObjectSetting(key: ViewWritableSetting): Record<string, unknown> {
  const value = vscode.workspace.getConfiguration('codewiki').inspect(key)?.globalValue;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {};
}

/** Settings that only agent mode reads: changing them needs no new engine. */
export const AGENT_MODE_SECTIONS = ['codewiki.chat', 'codewiki.agent', 'codewiki.tools'];
