import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { compileParsedActionPrompt, parseActionPromptDefinition } from '../../core/actionPrompt/compileActionPrompt';
import { ActionPromptError, type Diagnostic, formatDiagnostic } from '../../core/actionPrompt/diagnostics';
import { promptIdOf } from '../../core/actionPrompt/promptCatalog';
import { CliError, EXIT } from '../cliErrors';
import { loadEngine } from './loadEngine';

/** `codewiki validate <files…>`: every problem as file:line:col, exit 1 if there are any. */
export async function validateCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { workspace: { type: 'string', short: 'w' } } });
  if (!positionals.length) throw new CliError('usage: codewiki validate <file.yaml…> [--workspace DIR]');
  const engine = await loadEngine(values.workspace);
  let problems = 0;
  for (const file of positionals) {
    const diagnostics = await validateFile(file, engine.catalog.registry);
    problems += diagnostics.length;
    for (const d of diagnostics) io.stdout.write(`${formatDiagnostic(d)}\n`);
    if (!diagnostics.length) io.stdout.write(`${file}: ok\n`);
  }
  return problems ? EXIT.failed : EXIT.ok;
}

async function validateFile(file: string, tools: Parameters<typeof compileParsedActionPrompt>[1]['tools']): Promise<Diagnostic[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return [{ file, line: 1, column: 1, field: '', message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, severity: 'error' }];
  }
  try {
    compileParsedActionPrompt(parseActionPromptDefinition(text, file), { file, id: promptIdOf(file), source: 'file', tools });
    return [];
  } catch (error) {
    if (error instanceof ActionPromptError) return error.diagnostics;
    throw error;
  }
}
