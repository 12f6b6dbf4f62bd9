import { AgentToolSet } from '../../src/core/agent/agentToolSet';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { BUILTIN } from '../agent/agentHarness';
import { tempWorkspace } from '../support/engineBuilders';

/** A real workspace folder and the engine over it, as the extension and the CLI build it (no model needed). */
export async function testerWorkspace(
  files: Record<string, string> = { 'README.md': '# Demo\nhello from the readme\n', 'src/app.ts': 'export const x = 1;\n' },
) {
  const ws = tempWorkspace(files);
  const engine: CodewikiEngine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: NO_MODELS });
  return {
    root: ws.root,
    engine,
    tools: (toggles?: Parameters<typeof AgentToolSet.create>[1]) => AgentToolSet.create(engine.agentRegistry, toggles),
    cleanup: ws.cleanup,
  };
}
