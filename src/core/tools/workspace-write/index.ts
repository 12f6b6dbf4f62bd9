import type { ToolRegistry } from '../toolRegistry';
import type { Workspace } from '../../workspace/workspace';
import { createEditFileTool } from './editFile';
import { createRunCommandTool, DEFAULT_COMMAND_TIMEOUT_MS, type RunCommandOptions } from './runCommand';
import { createWriteFileTool } from './writeFile';

export { isPreviewableTool, PreviewableTool, type PreparedToolCall, type ToolPreview } from './toolPreview';
export { unifiedDiff } from './unifiedDiff';
export type { RunCommandOptions } from './runCommand';

const WRITE_TIMEOUT_MS = 30_000;

/**
 * The agent's write and execute tools, confined to `workspace` like the file tools. They belong in
 * the agent's registry only: a registry that action prompts compile against must not hold them,
 * since a workflow file would then run them without anyone approving (security promise #8).
 */
export function registerWorkspaceWriteTools(registry: ToolRegistry, workspace: Workspace, options: { command?: RunCommandOptions } = {}): void {
  const commandTimeout = options.command?.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  registry
    .register(createWriteFileTool(workspace), { kind: 'write', category: 'file', displayName: 'Write file', timeoutMs: WRITE_TIMEOUT_MS, agentCallable: true })
    .register(createEditFileTool(workspace), { kind: 'write', category: 'file', displayName: 'Edit file', timeoutMs: WRITE_TIMEOUT_MS, agentCallable: true })
    // The tool kills the command at its own timeout and reports it; the registry deadline is only the backstop.
    .register(createRunCommandTool(workspace, options.command), {
      kind: 'execute',
      category: 'shell',
      displayName: 'Run command',
      timeoutMs: commandTimeout + 10_000,
      agentCallable: true,
    });
}
