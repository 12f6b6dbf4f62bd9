import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic } from '../../core/actionPrompt/diagnostics';
import { EXIT } from '../cliErrors';
import { loadEngine } from './loadEngine';

/** `codewiki list`: built-in and workspace prompts; invalid ones appear with their first error. */
export async function listCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { workspace: { type: 'string', short: 'w' }, json: { type: 'boolean' } } });
  const engine = await loadEngine(values.workspace);
  const entries = engine.catalog.entries();
  if (values.json) {
    const rows = entries.map((e) => ({ id: e.id, source: e.source, title: e.title, description: e.description, file: e.file, valid: !!e.prompt, problems: e.diagnostics.map(formatDiagnostic) }));
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.ok;
  }
  const width = Math.max(4, ...entries.map((e) => e.id.length));
  for (const entry of entries) {
    const where = entry.source === 'builtin' ? 'built-in ' : 'workspace';
    const status = entry.prompt ? entry.title : `INVALID — ${formatDiagnostic(entry.diagnostics[0])}`;
    io.stdout.write(`${entry.id.padEnd(width)}  ${where}  ${status}\n`);
    if (entry.source !== 'builtin' && entry.prompt) io.stdout.write(`${''.padEnd(width)}             ${relative(engine.workspace.root, entry.file)}\n`);
  }
  return EXIT.ok;
}
