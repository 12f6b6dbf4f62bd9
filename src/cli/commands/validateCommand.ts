import { readFile } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { ActionPromptError, type Diagnostic, formatDiagnostic } from '../../core/yaml/diagnostics';
import type { CodewikiEngine } from '../../core/codewikiEngine';
import { compileAgentDefinition } from '../../core/subagents/compileAgentDefinition';
import { ToolRegistry } from '../../core/tools/toolRegistry';
import { EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { loadEngine } from './loadEngine';

export const VALIDATE_USAGE = `codewiki validate [file.yaml…] [--workspace DIR]
  check files without running them; prints file:line:col: message, exit 1 on any error.
  Without files: the workspace's .codewiki/prompts and .codewiki/agents`;

/**
 * `codewiki validate [files…]`: every problem as file:line:col. Exit 1 if there is any error;
 * warnings are printed too but, like in the editor, do not fail a file that can run. Without
 * files it checks what the workspace would load: its action prompts and agent definitions.
 */
export async function validateCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values, positionals } = parseCliArgs('validate', argv, { allowPositionals: true, options: { workspace: { type: 'string', short: 'w' } } });
  const engine = await loadEngine(values.workspace);
  const files = positionals.length ? positionals : workspaceFiles(engine);
  if (!files.length) {
    io.stdout.write(`no action prompts or agent definitions in ${engine.workspace.root} (.codewiki/prompts, .codewiki/agents)\n`);
    return EXIT.ok;
  }
  let errors = 0;
  for (const file of files) {
    const diagnostics = isAgentDefinitionFile(file) ? await validateAgentFile(file, engine) : await engine.catalog.validateFile(file);
    const fileErrors = diagnostics.filter((d) => d.severity === 'error').length;
    errors += fileErrors;
    for (const d of diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
    if (!fileErrors) io.stdout.write(`${file}: ok${diagnostics.length ? ` (${plural(diagnostics.length, 'warning')})` : ''}\n`);
  }
  return errors ? EXIT.failed : EXIT.ok;
}

/** The workspace's own prompt and agent files, as paths from the current directory when it contains them (shorter, and still clickable). */
function workspaceFiles(engine: CodewikiEngine): string[] {
  const files = [
    ...engine.catalog
      .entries()
      .filter((e) => e.source === 'workspace')
      .map((e) => e.file),
    // A second file of an id already taken is not loaded, but it is the user's file: its error is reported too.
    ...engine.catalog.duplicateEntries().map((e) => e.file),
    ...engine.agents
      .entries()
      .filter((e) => e.source === 'workspace')
      .map((e) => e.file),
  ];
  return files.map((file) => {
    const fromHere = relative(process.cwd(), file);
    return fromHere && !fromHere.startsWith('..') && !isAbsolute(fromHere) ? fromHere : file;
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Agent definitions live in an `agents` folder (`.codewiki/agents/`, or the built-in `agents/`); everything else is an action prompt. */
function isAgentDefinitionFile(file: string): boolean {
  return /(^|[\\/])agents[\\/][^\\/]+\.ya?ml$/i.test(file);
}

async function validateAgentFile(file: string, engine: CodewikiEngine): Promise<Diagnostic[]> {
  const text = await readText(file);
  if (typeof text !== 'string') return [text];
  // What an allow-list may name: the agent's tools without the sub-agents (this file's own name included).
  const tools = new ToolRegistry();
  for (const entry of engine.agentRegistry.list()) if (!engine.agents.get(entry.metadata.name)) tools.register(entry.tool, entry.metadata);
  try {
    return compileAgentDefinition(text, { file, source: 'workspace', tools }).warnings;
  } catch (error) {
    if (error instanceof ActionPromptError) return error.diagnostics;
    throw error;
  }
}

async function readText(file: string): Promise<string | Diagnostic> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    return {
      file,
      line: 1,
      column: 1,
      field: '',
      message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      severity: 'error',
    };
  }
}
