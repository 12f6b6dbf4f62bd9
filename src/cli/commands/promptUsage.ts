import type { CompiledActionPrompt, CompiledInput } from '../../core/actionPrompt/compiledActionPrompt';

/**
 * `codewiki run <id> --help`: what the prompt does and the `--input` values it takes, with their
 * types, so a user can write the command line without opening the YAML.
 */
export function promptUsage(prompt: CompiledActionPrompt, where: string, modelUses: string[]): string {
  const lines = [`codewiki run ${prompt.id}${prompt.inputs.length ? ' --input name=value…' : ''} [options]`, '', prompt.title];
  if (prompt.description) lines.push(prompt.description.trim());
  lines.push(`(${where})`, '');
  if (prompt.inputs.length) {
    lines.push('Inputs:');
    const width = Math.max(...prompt.inputs.map((input) => input.name.length));
    for (const input of prompt.inputs) lines.push(`  ${input.name.padEnd(width)}  ${describeInput(input)}`);
  } else {
    lines.push('Inputs: none');
  }
  lines.push('', modelUses.length ? `Calls a model (--model or CODEWIKI_MODEL): ${modelUses.join('; ')}` : 'Calls no model: runs without --model.');
  lines.push(
    '',
    'Example:',
    `  codewiki run ${prompt.id}${prompt.inputs
      .filter((i) => i.required)
      .map((i) => ` --input ${i.name}=${exampleValue(i)}`)
      .join('')}`,
  );
  lines.push('', 'Options (--workspace, --model, --dry-run, --log, …): see "codewiki run --help".');
  return `${lines.join('\n')}\n`;
}

export function describeInput(input: CompiledInput): string {
  const type = input.type === 'select' ? `one of ${(input.options ?? []).map((o) => JSON.stringify(o)).join(', ')}` : input.type;
  const need = input.required ? 'required' : input.default !== undefined ? `default ${JSON.stringify(input.default)}` : 'optional';
  return `${type}, ${need}${input.description ? ` — ${input.description}` : ''}`;
}

function exampleValue(input: CompiledInput): string {
  switch (input.type) {
    case 'path':
      return 'src';
    case 'number':
      return '10';
    case 'boolean':
      return 'true';
    case 'select':
      return String(input.options?.[0] ?? '');
    default:
      return '"<text>"';
  }
}
