import { z } from 'zod';
import type { ToolKind } from '../tools/toolMetadata';

/** The kinds a policy can wave through; read and think tools never ask in the first place. */
export type ApprovableKind = Extract<ToolKind, 'write' | 'execute'>;

/** What a user writes in their settings (or passes on the command line). */
export interface AutoApprovalSettings {
  /** Every tool of these kinds runs without asking (run_command still only for simple commands). */
  kinds?: ApprovableKind[];
  /** These tools run without asking. */
  tools?: string[];
  /** run_command runs these without asking: an entry matches the command itself or the command followed by arguments; "*" matches any. */
  commands?: string[];
}

/**
 * Where a setting came from. Only the user's own places can grant auto-approval: the user-level
 * settings (VS Code's global scope, which the extension declares `application`-scoped) and the
 * CLI flags the user typed. Everything a repository can ship (workspace settings, action prompts,
 * agent definitions) or a model can say is listed so it can be named and ignored.
 */
export type SettingOrigin = 'default' | 'user' | 'cli' | 'workspace' | 'workspace-folder' | 'action-prompt' | 'agent-definition' | 'model';

export interface SettingLayer {
  origin: SettingOrigin;
  value: unknown;
}

const TRUSTED_ORIGINS: ReadonlySet<SettingOrigin> = new Set(['default', 'user', 'cli']);

const settingsSchema = z
  .object({
    kinds: z.array(z.enum(['write', 'execute'])).optional(),
    tools: z.array(z.string().min(1)).optional(),
    commands: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** Characters that chain, redirect or substitute commands. A command containing any of them always asks. */
const COMPOUND = /[;&|<>`\n\r]|\$\(/;

/**
 * The user's auto-approval rules (security promise #8). It is built only through the factories
 * below, which read nothing but user-level layers: there is no way to turn a workspace file, an
 * action prompt or an agent definition into a grant. Instances are frozen and carry a private
 * brand, and the approval check honours only branded instances, so an object that merely has the
 * right shape (say, parsed from a JSON file in the repository) grants nothing.
 */
export class AutoApprovalPolicy {
  readonly #genuine = true;

  private constructor(
    readonly kinds: ReadonlySet<ApprovableKind>,
    readonly tools: ReadonlySet<string>,
    readonly commands: readonly string[],
    /** Layers that were not read, and why: shown to the user so a repository's attempt is visible. */
    readonly ignored: readonly string[],
  ) {
    Object.freeze(this);
  }

  /** Nothing is auto-approved: every write and execute call asks. */
  static none(): AutoApprovalPolicy {
    return new AutoApprovalPolicy(new Set(), new Set(), [], []);
  }

  /** Merges the trusted layers in order; untrusted layers are skipped and named in `ignored`. */
  static fromSettingLayers(layers: readonly SettingLayer[]): AutoApprovalPolicy {
    const kinds = new Set<ApprovableKind>();
    const tools = new Set<string>();
    const commands: string[] = [];
    const ignored: string[] = [];
    for (const layer of layers) {
      if (layer.value === undefined || layer.value === null) continue;
      if (!TRUSTED_ORIGINS.has(layer.origin)) {
        ignored.push(`auto-approval from ${layer.origin} settings was ignored: only your user settings can grant it`);
        continue;
      }
      const parsed = settingsSchema.safeParse(layer.value);
      if (!parsed.success) {
        ignored.push(`auto-approval from ${layer.origin} settings was ignored: ${z.prettifyError(parsed.error).replace(/\n/g, '; ')}`);
        continue;
      }
      for (const kind of parsed.data.kinds ?? []) kinds.add(kind);
      for (const tool of parsed.data.tools ?? []) tools.add(tool);
      for (const command of parsed.data.commands ?? []) commands.push(normalizeCommand(command));
    }
    return new AutoApprovalPolicy(kinds, tools, commands, ignored);
  }

  /** User settings only: the convenience for a caller that already holds the user's own values. */
  static fromUserSettings(settings: AutoApprovalSettings | undefined): AutoApprovalPolicy {
    return AutoApprovalPolicy.fromSettingLayers([{ origin: 'user', value: settings }]);
  }

  /**
   * From the shape VS Code's `WorkspaceConfiguration.inspect()` returns: the default and the
   * global (user) values are read; workspace and folder values are ignored and reported.
   */
  static fromInspectedSetting(
    inspected: { defaultValue?: unknown; globalValue?: unknown; workspaceValue?: unknown; workspaceFolderValue?: unknown } | undefined,
  ): AutoApprovalPolicy {
    return AutoApprovalPolicy.fromSettingLayers([
      { origin: 'default', value: inspected?.defaultValue },
      { origin: 'user', value: inspected?.globalValue },
      { origin: 'workspace', value: inspected?.workspaceValue },
      { origin: 'workspace-folder', value: inspected?.workspaceFolderValue },
    ]);
  }

  /** True only for instances made by the factories above. */
  static isGenuine(value: unknown): value is AutoApprovalPolicy {
    return typeof value === 'object' && value !== null && #genuine in value;
  }

  /** Whether a call runs without asking. `command` is set for command-running tools, which follow the command rules instead of the kind rule. */
  autoApproves(tool: { name: string; kind: ToolKind }, command?: string): boolean {
    if (tool.kind !== 'write' && tool.kind !== 'execute') return true;
    if (command !== undefined) {
      if (isCompoundCommand(command)) return false;
      if (this.kinds.has('execute') || this.tools.has(tool.name)) return true;
      return this.commands.some((entry) => commandMatches(entry, command));
    }
    return this.kinds.has(tool.kind) || this.tools.has(tool.name);
  }
}

/** `;`, `&&`, `||`, `|`, `&`, redirects, `$(…)`, backticks or a line break: more than one plain command. */
export function isCompoundCommand(command: string): boolean {
  return COMPOUND.test(command);
}

function commandMatches(entry: string, command: string): boolean {
  if (entry === '*') return true;
  const normalized = normalizeCommand(command);
  return normalized === entry || normalized.startsWith(`${entry} `);
}

export function normalizeCommand(command: string): string {
  return command.trim().replace(/\s+/g, ' ');
}
