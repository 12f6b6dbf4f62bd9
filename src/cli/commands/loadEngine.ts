import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CodebaseIndex } from '../../core/codebaseIndex/codebaseIndex';
import { cliIndexDir } from '../../core/codebaseIndex/store/indexLocation';
import { createCodewikiEngine, type CodewikiEngine } from '../../core/codewikiEngine';
import type { ModelProvider } from '../../core/llm/modelProvider';
import { NO_MODELS } from '../../core/llm/modelProvider';
import { CliError } from '../cliErrors';
import { allowSecretFilesFromEnv, dialectFromEnv } from '../cliSettings';
import { builtinPromptsDir } from '../packagePaths';

/** The engine for a CLI command, rooted at `--workspace` (default: the current directory). */
export async function loadEngine(
  workspace: string | undefined,
  models: ModelProvider = NO_MODELS,
  maxInputTokens?: number,
  options: { wikiDir?: string } = {},
): Promise<CodewikiEngine> {
  const root = resolve(workspace ?? process.cwd());
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError(`--workspace ${root}: not a folder`);
  return createCodewikiEngine({
    workspaceRoot: root,
    builtinPromptsDir: builtinPromptsDir(),
    models,
    executor: maxInputTokens ? { maxInputTokens } : undefined,
    workspace: allowSecretFilesFromEnv(process.env),
    dialect: dialectFromEnv(process.env),
    // Saved in CodeWiki's cache, outside the workspace: the next command in this folder reads it back and re-reads only changed files.
    codeIndex: (opened) => new CodebaseIndex({ workspace: opened, storeDir: cliIndexDir(process.env) }),
    wikiDir: options.wikiDir,
  });
}
