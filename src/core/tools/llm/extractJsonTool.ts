import { z } from 'zod';
import { defineLlmTool } from './defineLlmTool';
import { askForJson } from './jsonAnswer';

const schema = z.object({
  content: z.string().describe('The text to extract from.'),
  instructions: z.string().describe('What to extract.'),
  schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema the result must satisfy.'),
});

/** Extracts structured data with the tool model, validated against a schema with one repair retry. */
export function createExtractJsonLlmTool() {
  return defineLlmTool({
    name: 'extract_json_llm_tool',
    description: 'Extracts JSON from text with the tool model, validated against an optional JSON Schema.',
    schema,
    messages: (input) => [
      {
        role: 'system',
        content: `You extract structured data. Reply with only JSON, no prose.${input.schema ? `\nThe JSON must satisfy this JSON Schema:\n${JSON.stringify(input.schema)}` : ''}`,
      },
      { role: 'human', content: `${input.instructions}\n\n${input.content}` },
    ],
    run: (context) => askForJson(context, context.prompt, context.input.schema),
    dryRunResult: () => null,
  });
}
