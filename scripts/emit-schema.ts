import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionPromptJsonSchema } from '../src/core/actionPrompt/actionPromptJsonSchema';

/** Writes the editor schema generated from the zod definition (the single source of truth). */
const out = join(__dirname, '..', 'schemas');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'action-prompt.schema.json'), `${JSON.stringify(actionPromptJsonSchema(), null, 2)}\n`);
