import { relative } from 'node:path';
import { formatDiagnostic } from '../../core/yaml/diagnostics';
import { EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { loadEngine } from './loadEngine';
import type { CompiledInput } from '../../core/actionPrompt/compiledActionPrompt';

export const LIST_USAGE = `codewiki list [--workspace DIR] [--json]
  built-in and workspace (.codewiki/prompts) action prompts with their inputs;
  exit 1 when one of them is invalid`;

/**
 * `codewiki list`: built-in and workspace prompts, each with its inputs; invalid ones appear with
 * their first error, and make the exit status 1 so a CI step notices a broken prompt.
 */
export async function listCommand(argv: string[], io: { stdout: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseCliArgs('list', argv, { options: { workspace: { type: 'string', short: 'w' }, json: { type: 'boolean' } } });
  const engine = await loadEngine(values.workspace);
  const entries = engine.catalog.entries();
  const status = entries.every((e) => e.prompt) ? EXIT.ok : EXIT.failed;
  if (values.json) {
    const rows = entries.map((e) => ({
      id: e.id,
      source: e.source,
      title: e.title,
      description: e.description,
      file: e.file,
      valid: !!e.prompt,
      inputs:
        e.prompt?.inputs.map((i) => ({
          name: i.name,
          type: i.type,
          required: i.required,
          default: i.default,
          options: i.options,
          description: i.description,
        })) ?? [],
      problems: e.diagnostics.map(formatDiagnostic),
    }));
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return status;
  }
  const width = Math.max(4, ...entries.map((e) => e.id.length));
  const under = ''.padEnd(width + 13);
  for (const entry of entries) {
    const where = entry.source === 'builtin' ? 'built-in ' : 'workspace';
    const title = entry.prompt ? entry.title : `INVALID — ${formatDiagnostic(entry.diagnostics[0])}`;
    io.stdout.write(`${entry.id.padEnd(width)}  ${where}  ${title}\n`);
    if (entry.source !== 'builtin' && entry.prompt) io.stdout.write(`${under}${relative(engine.workspace.root, entry.file)}\n`);
    if (entry.prompt?.inputs.length) io.stdout.write(`${under}inputs: ${entry.prompt.inputs.map(inputSignature).join(' · ')}\n`);
  }
  if (entries.length) io.stdout.write('\n"codewiki run <id> --help" describes a prompt\'s inputs.\n');
  return status;
}

/** One input in a line: `file: path`, `depth: number = 2`, `question?: multiline`, `tone: a|b = a`. */
function inputSignature(input: CompiledInput): string {
  const type = input.type === 'select' ? (input.options ?? []).map(String).join('|') : input.type;
  if (input.required) return `${input.name}: ${type}`;
  if (input.default === undefined) return `${input.name}?: ${type}`;
  const shown = JSON.stringify(input.default);
  return `${input.name}: ${type} = ${shown.length > 32 ? `${shown.slice(0, 30)}…"` : shown}`;
}
