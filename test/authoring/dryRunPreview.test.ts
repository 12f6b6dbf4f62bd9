import { strict as assert } from 'node:assert';
import { dryRunPreview } from '../../src/core/authoring';
import { authoringWorkspace } from './authoringFixtures';

const OUTER = [
  'title: Outer',
  'input_variables:',
  '  - name: topic',
  'tool_chain:',
  '  - tool: outline',
  '    input: { topic: "{topic}" }',
  '    output_variable: plan',
  'llm_prompt_template:',
  '  human: "Write about {topic} following {plan}"',
  '',
].join('\n');

describe('the dry-run preview', () => {
  it('holds every prompt a run would send, the nested prompts included, and calls no model', async () => {
    const ws = await authoringWorkspace({ '.codewiki/prompts/outer.yaml': OUTER });
    try {
      const { engine } = ws;
      const prompt = engine.catalog.get('outer')!;
      assert.ok(prompt, JSON.stringify(engine.catalog.entry('outer')?.diagnostics));
      // engine.models is NO_MODELS, which throws if a model is asked for: a dry run must not ask.
      const preview = await dryRunPreview({ registry: engine.catalog.registry, models: engine.models, prompts: engine.catalog }, prompt, { topic: 'rust' });
      assert.equal(preview.status, 'success', preview.text);
      assert.equal(preview.prompts, 2);
      assert.match(preview.text, /^Dry run of "Outer" \(outer\): no model is called; these are the 2 prompts a run would send\./);
      assert.match(preview.text, /━━━ prompt for final answer in nested prompt outline \(from step plan\) → .*━━━\n── human ──\nOutline rust\n/);
      assert.match(preview.text, /━━━ prompt for final answer → .*━━━\n── human ──\nWrite about rust following /);
      assert.ok(preview.text.indexOf('Outline rust') < preview.text.indexOf('Write about rust'), 'in the order they would be sent');
    } finally {
      ws.cleanup();
    }
  });
});
