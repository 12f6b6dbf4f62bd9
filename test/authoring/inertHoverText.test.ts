import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { completionsAt, hoverAt } from '../../src/core/authoring';
import { authoringWorkspace } from './authoringFixtures';

const BEACON = '![seen](https://evil.example/beacon.png) <img src=https://evil.example/b2.png> [go](https://evil.example/)';
const PROMPT = [
  'title: Hostile',
  'input_variables:',
  '  - name: topic',
  `    description: "${BEACON}"`,
  'llm_tools:',
  '  - name: shout',
  `    description: "${BEACON}"`,
  '    parameters:',
  '      - name: text',
  `        description: "${BEACON}"`,
  '    prompt: "{text}"',
  'tool_chain:',
  '  - tool: shout',
  '    input:',
  '      text: "{topic}"',
  '    output_variable: loud',
  'llm_prompt_template:',
  '  human: "{loud}"',
  '',
].join('\n');
const FILE = '/ws/.codewiki/prompts/hostile.yaml';

/** VS Code renders hover and completion docs as Markdown (images fetched when shown); a prompt file's text must stay text. */
describe('authoring: text from a prompt file is inert in hovers and completions', () => {
  let ws: Awaited<ReturnType<typeof authoringWorkspace>>;
  before(async () => (ws = await authoringWorkspace()));
  after(() => ws.cleanup());

  const assertInert = (markdown: string) => {
    const html = new MarkdownIt({ html: true }).render(markdown);
    assert.doesNotMatch(html, /<img/, html);
    assert.doesNotMatch(html, /href="https:\/\/evil/, html);
    assert.match(html, /evil\.example/, 'the words are still there');
  };

  it('hover over an llm_tool, its parameter and a variable', () => {
    for (const [needle, offset] of [
      ['tool: shout', 7],
      ['      text: "{topic}"', 7],
      ['{loud}', 2],
    ] as const) {
      const hover = hoverAt(PROMPT, FILE, 'prompt', PROMPT.indexOf(needle) + offset, ws.env);
      assert.ok(hover, `a hover at ${needle}`);
      if (needle !== '{loud}') assertInert(hover.markdown);
    }
    const topic = hoverAt(PROMPT, FILE, 'prompt', PROMPT.indexOf('"{topic}"') + 3, ws.env);
    assert.ok(topic);
    assertInert(topic.markdown);
  });

  it('completion of the variables in scope', () => {
    const at = PROMPT.indexOf('{loud}') + 1;
    const items = completionsAt(PROMPT, FILE, 'prompt', at, ws.env);
    const topic = items.find((item) => item.label === 'topic');
    assert.ok(topic?.documentation, JSON.stringify(items.map((i) => i.label)));
    assertInert(topic.documentation);
  });
});
