import { createInterface } from 'node:readline/promises';
import type { CompiledInput } from '../core/actionPrompt/compiledActionPrompt';

/** On a terminal, a missing required input is asked for rather than failing the run. */
export async function askMissingInputs(inputs: CompiledInput[], stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<Record<string, string>> {
  const answers: Record<string, string> = {};
  const rl = createInterface({ input: stdin, output: stderr });
  try {
    for (const input of inputs) {
      const hint = input.type === 'select' ? ` [${input.options!.join(' | ')}]` : input.type === 'boolean' ? ' [yes/no]' : '';
      answers[input.name] = (await rl.question(`${input.description ?? input.name} (${input.name})${hint}: `)).trim();
    }
  } finally {
    rl.close();
  }
  return answers;
}
