import { join } from 'node:path';
import type { CatalogEntry } from '../../src/core/actionPrompt/promptCatalog';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';

export const BUILTIN_PROMPTS = join(__dirname, '..', '..', 'action-prompts');

export interface LoadedPrompts {
  root: string;
  engine: CodewikiEngine;
  /** The catalog entry of `.codewiki/prompts/<id>.yaml`. */
  entry(id: string): CatalogEntry;
  cleanup(): void;
}

/**
 * Writes prompt files into a real workspace's `.codewiki/prompts/` and loads them through
 * createCodewikiEngine, the path the CLI and the extension both take, so a test sees what the
 * user would: a runnable prompt, or a listed one with its problems.
 */
export async function loadWorkspacePrompts(files: Record<string, string>): Promise<LoadedPrompts> {
  const ws = tempWorkspace({
    'src/a.ts': 'export const a = 1;\n',
    ...Object.fromEntries(Object.entries(files).map(([name, text]) => [`.codewiki/prompts/${name}`, text])),
  });
  try {
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN_PROMPTS, models: NO_MODELS });
    const entry = (id: string) => {
      const found = engine.catalog.entry(id);
      if (!found) throw new Error(`no prompt "${id}" was loaded`);
      return found;
    };
    return { root: ws.root, engine, entry, cleanup: ws.cleanup };
  } catch (error) {
    ws.cleanup();
    throw error;
  }
}

/** The 1-based line and column of the `nth` (0-based) occurrence of `needle` in `text`. */
export function positionOf(text: string, needle: string, nth = 0): { line: number; column: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" occurs fewer than ${nth + 1} times`);
  }
  const before = text.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}
