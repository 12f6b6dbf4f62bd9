import { dirname, join } from 'node:path';
import { formatDiagnostic } from './yaml/diagnostics';
import { PromptCatalog, type PromptFolder } from './actionPrompt/promptCatalog';
import { workspacePromptFolders } from './actionPrompt/workspacePromptFolders';
import type { DialectOptions } from './actionPrompt/seedDialect';
import { CustomAgentExecutor } from './engine/customAgentExecutor';
import type { ExecutorOptions } from './engine/executorTypes';
import type { ModelProvider } from './llm/modelProvider';
import { CodebaseIndex } from './codebaseIndex/codebaseIndex';
import type { CodeIndex } from './codebaseIndex/codeIndexTypes';
import { registerIndexTools } from './codebaseIndex/tools/indexTools';
import { AgentCatalog, type AgentFolder, WORKSPACE_AGENTS_DIR } from './subagents/agentCatalog';
import { registerAgentCallablePrompts } from './subagents/agentCallablePrompts';
import { registerFileTools } from './tools/file';
import { registerLlmTools } from './tools/llm/registerLlmTools';
import { ToolRegistry } from './tools/toolRegistry';
import { registerWorkspaceWriteTools, type RunCommandOptions } from './tools/workspace-write';
import { Workspace, type WorkspaceFolderInput, type WorkspaceOptions } from './workspace';
import { CodeWiki } from './wiki/codeWiki';
import { registerWikiTools } from './wiki/tools/wikiTools';
import { wikiFolder } from './wiki/wikiLocation';

export interface EngineConfig {
  /** The workspace's one folder (the CLI's `--workspace`). Ignored when `workspaceRoots` is given. */
  workspaceRoot?: string;
  /**
   * Every folder of the workspace, first one first (a VS Code multi-root workspace), with the names
   * their paths begin with. Prompts and agent definitions load from each folder's `.codewiki/`.
   */
  workspaceRoots?: WorkspaceFolderInput[];
  builtinPromptsDir: string;
  /** Built-in agent definitions (sub-agents); default: the `agents` folder beside builtinPromptsDir. */
  builtinAgentsDir?: string;
  /**
   * Extra prompt folders (e.g. `codewiki.promptFolders`): absolute, or relative to the folders of the
   * workspace (looked for in each; skipped with a warning when in none).
   */
  promptFolders?: string[];
  /** False in an untrusted workspace: only built-in prompts and agent definitions load (security.md #1). */
  loadWorkspacePrompts?: boolean;
  models: ModelProvider;
  executor?: Partial<ExecutorOptions>;
  workspace?: WorkspaceOptions;
  /** run_command's timeout and output cap (agent only). */
  command?: RunCommandOptions;
  /** Which `${env.X}` seed-002 chains may read: user settings only (default: none). */
  dialect?: DialectOptions;
  /**
   * The workspace's code index, given the engine's workspace. The host owns it, so it can outlive engine
   * rebuilds (the extension's runs in a worker and is saved in its storage; the CLI's is saved in its
   * cache). Default: one in this thread, in memory, built on first use.
   */
  codeIndex?: (workspace: Workspace) => CodeIndex;
  /** The wiki folder, absolute (the CLI's `--out`); default `.codewiki/wiki` in the first workspace folder. */
  wikiDir?: string;
}

export interface CodewikiEngine {
  workspace: Workspace;
  registry: ToolRegistry;
  /**
   * What the agent may be offered: the built-in tools plus the write and execute tools. Those live
   * only here, so an action prompt (compiled against `registry`) cannot name them and run them unasked.
   */
  agentRegistry: ToolRegistry;
  catalog: PromptCatalog;
  /** Agent definitions: each valid one is a sub-agent tool in agentRegistry; invalid ones are listed with their errors. */
  agents: AgentCatalog;
  executor: CustomAgentExecutor;
  models: ModelProvider;
  /** Symbols, ranked search and the file graph of the workspace: what answers start from. */
  codeIndex: CodeIndex;
  /** The workspace's wiki, built from the index and kept in its folder. */
  wiki: CodeWiki;
  /** Configuration problems that did not stop the engine, e.g. a prompt folder outside the workspace. */
  warnings: string[];
}

/**
 * The composition root shared by the CLI, the extension and the tests, so all three run the
 * same tools, prompts and executor wiring.
 */
export async function createCodewikiEngine(config: EngineConfig): Promise<CodewikiEngine> {
  const roots = config.workspaceRoots?.length ? config.workspaceRoots : config.workspaceRoot !== undefined ? [config.workspaceRoot] : [];
  if (roots.length === 0) throw new Error('The engine needs a workspace folder (workspaceRoot or workspaceRoots)');
  const workspace = await Workspace.open(roots, config.workspace);
  const registry = new ToolRegistry();
  registerFileTools(registry, workspace);
  const codeIndex = config.codeIndex?.(workspace) ?? new CodebaseIndex({ workspace });
  registerIndexTools(registry, codeIndex);
  const wiki = new CodeWiki({ workspace, codeIndex, wikiDir: config.wikiDir ?? wikiFolder(workspace.root) });
  registerWikiTools(registry, wiki);
  registerLlmTools(registry);
  const warnings: string[] = [];
  const folders: PromptFolder[] = [{ dir: config.builtinPromptsDir, source: 'builtin' }];
  if (config.loadWorkspacePrompts !== false) {
    const found = await workspacePromptFolders(workspace, config.promptFolders ?? []);
    folders.push(...found.dirs.map((dir) => ({ dir, source: 'workspace' as const })));
    warnings.push(...found.warnings);
  }
  const catalog = await PromptCatalog.load(folders, registry, config.dialect);
  const executor = new CustomAgentExecutor({ registry: catalog.registry, models: config.models, prompts: catalog, options: config.executor });
  // From the built-in tools, not the catalog's: a workspace prompt named like a write tool must not collide with it.
  const agentRegistry = registry.clone();
  registerWorkspaceWriteTools(agentRegistry, workspace, { command: config.command });
  warnings.push(...registerAgentCallablePrompts(agentRegistry, catalog));
  const agentFolders: AgentFolder[] = [{ dir: config.builtinAgentsDir ?? join(dirname(config.builtinPromptsDir), 'agents'), source: 'builtin' }];
  if (config.loadWorkspacePrompts !== false)
    agentFolders.push(...workspace.roots.map((root) => ({ dir: join(root, WORKSPACE_AGENTS_DIR), source: 'workspace' as const })));
  const agents = await AgentCatalog.load(agentFolders, agentRegistry);
  for (const entry of agents.entries()) {
    if (!entry.definition) warnings.push(`agent definition skipped: ${entry.diagnostics.map(formatDiagnostic).join('; ')}`);
  }
  return { workspace, registry: catalog.registry, agentRegistry, catalog, agents, executor, models: config.models, codeIndex, wiki, warnings };
}
