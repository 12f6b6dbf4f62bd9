import { z } from 'zod';
import { editorActionPromptSchema } from './actionPromptSchema';

/** The JSON Schema editors use for completion and hover in action-prompt files. */
export function actionPromptJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(editorActionPromptSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://codewiki.dev/schemas/action-prompt.schema.json',
    title: 'CodeWiki action prompt',
    description: 'A YAML workflow: inputs, a tool_chain whose outputs feed later steps, and a final prompt. See docs/action-prompts.md.',
  };
}
