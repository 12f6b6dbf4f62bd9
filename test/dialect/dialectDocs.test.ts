import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as yaml from 'js-yaml';
import { compileActionPrompt } from '../../src/core/actionPrompt/compileActionPrompt';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';

const ROOT = join(__dirname, '..', '..');

/** The seed-002 examples in docs/action-prompts.md load, translate and dry-run, so the section cannot drift from the translator. */
describe("docs: the seed 002 dialect section's examples", () => {
  const doc = readFileSync(join(ROOT, 'docs', 'action-prompts.md'), 'utf8');
  const section = /## Seed 002's chain dialect[\s\S]*?(?=\n## )/.exec(doc)?.[0] ?? '';
  const examples = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]).filter((text) => /^steps:/m.test(text));

  it('has the section and an example', () => assert.ok(examples.length >= 1, `found ${examples.length}`));

  it('every example compiles against the real tools, without warnings, and dry-runs', async () => {
    const ws = tempWorkspace({ 'src/a.ts': 'export function createServer() {}\n' });
    try {
      const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(ROOT, 'action-prompts'), models: NO_MODELS });
      for (const text of examples) {
        const id = (yaml.load(text) as { name: string }).name;
        const prompt = compileActionPrompt(text, { file: `${id}.yaml`, id, source: 'file', tools: engine.registry });
        assert.deepEqual(prompt.warnings, []);
        const inputs = Object.fromEntries(prompt.inputs.map((input) => [input.name, 'createServer']));
        const result = await engine.executor.run(prompt, inputs, { dryRun: true });
        assert.equal(result.status, 'success', `${id}: ${result.log.error}`);
      }
    } finally {
      ws.cleanup();
    }
  });
});
