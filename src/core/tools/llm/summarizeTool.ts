import { z } from 'zod';
import { defineLlmTool } from './defineLlmTool';

const schema = z.object({
  content: z.string().describe('The text or code to summarise.'),
  instructions: z.string().optional().describe('What to focus on.'),
  max_words: z.number().int().min(10).max(2000).optional().describe('Length limit (default 150).'),
});

/** Summarises with the tool model; the map half of map-reduce prompts. */
export function createSummarizeLlmTool() {
  return defineLlmTool({
    name: 'summarize_llm_tool',
    description: 'Summarises text or code with the tool model.',
    schema,
    messages: (input) => [
      {
        role: 'system',
        content: `You summarise source code and documents for a software engineer. Be factual and specific. At most ${input.max_words ?? 150} words.`,
      },
      { role: 'human', content: `${input.instructions ? `Focus: ${input.instructions}\n\n` : ''}Summarise:\n\n${input.content}` },
    ],
    run: async ({ prompt, ask }) => (await ask(prompt)).trim(),
    dryRunResult: (input) => `[dry run: a summary of ${input.content.length.toLocaleString('en-US')} characters would be written here]`,
  });
}
