import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileActionPrompt } from '../../src/core/actionPrompt/compileActionPrompt';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';

const ROOT = join(__dirname, '..', '..');

/** Every YAML example in the docs must load, so the docs cannot drift from the format. */
describe('docs/action-prompts.md examples', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'action-prompts.md'), 'utf8');
  const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).filter((yaml) => /^title:/m.test(yaml));

  it('has examples', () => assert.ok(examples.length >= 5, `found ${examples.length}`));

  it('every example compiles against the real tools and built-in prompts, and dry-runs', async () => {
    const ws = tempWorkspace({ 'src/a.ts': 'export function createServer() {}\n', 'CHANGES.md': '- fixed a bug\n' });
    try {
      const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(ROOT, 'action-prompts'), models: NO_MODELS });
      for (const [i, yaml] of examples.entries()) {
        const prompt = compileActionPrompt(yaml, { file: `example-${i}.yaml`, id: `example-${i}`, source: 'file', tools: engine.registry });
        const inputs = Object.fromEntries(
          prompt.inputs.map((input) => [input.name, input.type === 'path' ? (/folder/.test(input.name) ? 'src' : 'src/a.ts') : 'createServer']),
        );
        const result = await engine.executor.run(prompt, inputs, { dryRun: true });
        assert.equal(result.status, 'success', `example ${i} (${prompt.title}): ${result.log.error}`);
      }
    } finally {
      ws.cleanup();
    }
  });
});

describe('the "New Action Prompt" template', () => {
  it('validates and dry-runs as written', async () => {
    const { NEW_PROMPT_TEMPLATE } = await import('../../src/extension/newPromptTemplate');
    const ws = tempWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
    try {
      const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(ROOT, 'action-prompts'), models: NO_MODELS });
      const prompt = compileActionPrompt(NEW_PROMPT_TEMPLATE, { file: 'my-prompt.yaml', id: 'my-prompt', source: 'workspace', tools: engine.registry });
      const result = await engine.executor.run(prompt, { folder: 'src', question: 'What is here?' }, { dryRun: true });
      assert.equal(result.status, 'success', result.log.error);
      assert.match(result.log.final!.messages[1].content, /export const a = 1;/);
    } finally {
      ws.cleanup();
    }
  });
});
