import { join } from 'node:path';
import { authoringEnvironmentOf, type AuthoringEnvironment } from '../../src/core/authoring';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';

export const REPO = join(__dirname, '..', '..');

/** A prompt another prompt can call: its id is "outline", it takes `topic`. */
export const OUTLINE_PROMPT =
  'title: Outline\ndescription: Outlines a topic.\ninput_variables:\n  - name: topic\nllm_prompt_template:\n  human: "Outline {topic}"\n';

/** A real engine over a temp workspace (built-in prompts and tools, plus the given files), as the extension builds it. */
export async function authoringWorkspace(
  files: Record<string, string> = {},
): Promise<{ root: string; engine: CodewikiEngine; env: AuthoringEnvironment; cleanup: () => void }> {
  const ws = tempWorkspace({ '.codewiki/prompts/outline.yaml': OUTLINE_PROMPT, 'src/a.ts': 'export const a = 1;\n', ...files });
  const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(REPO, 'action-prompts'), models: NO_MODELS });
  return { root: ws.root, engine, env: authoringEnvironmentOf(engine), cleanup: ws.cleanup };
}

/** The offset of the `‸` marker in `marked`, and the text without it. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('‸');
  if (offset < 0) throw new Error('no ‸ marker');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}
