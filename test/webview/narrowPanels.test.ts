import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import type { PromptSummary } from '../../src/shared/protocol';
import { agentRun, assistant, conversation, everyControlPrompt, init, simplePrompt, step, user } from './support/builders';
import { applyVsCodeTheme } from './support/vscodeTheme';
import { useWebview } from './support/webviewPage';

/** `SHOTS_DIR=/tmp/shots` saves the 300 px screenshots there for a reviewer; without it none are taken. */
const SHOTS = process.env.SHOTS_DIR;
const NO_SIDEWAYS_SCROLL = 'document.documentElement.scrollWidth <= window.innerWidth';
const LONG_PATH = '/home/someone/projects/a-rather-long-workspace-name/.codewiki/prompts/team/with/many/folders/broken-prompt.yaml';

const prompts = (): PromptSummary[] => [
  everyControlPrompt(),
  simplePrompt('explain-file', 'Explain a file in plain words for a newcomer to the codebase', {
    description: 'Reads one file and the files it imports, then explains what it does and why',
  }),
  simplePrompt('module-design-doc', 'Module design document', { source: 'workspace', description: 'Writes a design document for a module from its sources' }),
  {
    id: 'broken-prompt-with-a-long-identifier',
    title: 'Broken prompt',
    description: '',
    source: 'workspace',
    inputs: [],
    error: `.codewiki/prompts/team/broken-prompt.yaml:3:11: tool_chain[0].tool: unknown tool "raed_file"; did you mean "read_file"?`,
    errorAt: {
      path: '.codewiki/prompts/team/broken-prompt.yaml',
      line: 3,
      column: 11,
      message: 'tool_chain[0].tool: unknown tool "raed_file"; did you mean "read_file"?',
    },
  },
];

interface Box {
  scrollWidth: number;
  clientWidth: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  height: number;
}

async function boxes(locator: Locator): Promise<Box[]> {
  return locator.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height };
    }),
  );
}

function assertNoOverflow(list: Box[], what: string, viewport = 300): void {
  assert.ok(list.length > 0, `${what}: rendered`);
  for (const [i, b] of list.entries()) {
    assert.ok(b.scrollWidth <= b.clientWidth + 1, `${what} ${i}: content ${b.scrollWidth} px fits ${b.clientWidth} px`);
    assert.ok(b.right <= viewport + 0.5 && b.left >= -0.5, `${what} ${i}: inside the viewport (${b.left}–${b.right})`);
  }
}

/** Issue 10 §3 at the default sidebar width: one scroll area, two-line picker rows, a form whose Run shows, buttons never cut. */
describe('webview: picker, form and errors at a 300 px sidebar', function () {
  const { view } = useWebview({ viewport: { width: 300, height: 600 } });
  const page = () => view().page;
  const composer = () => page().locator('cw-composer textarea');

  before(() => SHOTS && mkdirSync(SHOTS, { recursive: true }));
  const shoot = async (name: string) => {
    if (SHOTS) await page().screenshot({ path: join(SHOTS, `${name}-300.png`) });
  };

  async function openPicker(): Promise<void> {
    await composer().click();
    await composer().fill('/agent');
    await composer().press('Enter');
    await page().locator('cw-prompt-picker li').first().waitFor();
  }

  const history = () =>
    conversation('c1', [
      user('u1', 'What does the parser do?'),
      assistant('a1', 'It turns YAML into steps.\n\n'.repeat(6)),
      user('u2', 'And the executor?'),
      assistant('a2', 'It runs them.'),
    ]);

  it('the picker sits in the conversation’s one scroll area; each prompt is at most two lines and nothing overflows', async () => {
    await view().send(init({ prompts: prompts(), conversation: history() }));
    await applyVsCodeTheme(page());
    await openPicker();
    assert.equal(await page().locator('cw-message-list > cw-prompt-picker').count(), 1, 'inside the message list');
    const scrollers = await page().evaluate(`(() => {
      const found = [];
      const walk = (root) => root.querySelectorAll('*').forEach((el) => {
        const s = getComputedStyle(el);
        if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && el.scrollHeight > el.clientHeight + 1) found.push(el.className || el.tagName);
        if (el.shadowRoot) walk(el.shadowRoot);
      });
      walk(document);
      return found;
    })()`);
    assert.deepEqual(scrollers, ['scroller'], 'one scroll area');
    const rows = page().locator('cw-prompt-picker li');
    assertNoOverflow(await boxes(rows), 'picker row');
    const lineHeight = await rows
      .first()
      .evaluate(
        (li) =>
          parseFloat(li.ownerDocument.defaultView.getComputedStyle(li.querySelector('.second')).fontSize) * 1.6 +
          parseFloat(li.ownerDocument.defaultView.getComputedStyle(li).fontSize) * 1.6,
      );
    for (const [i, b] of (await boxes(rows)).entries())
      assert.ok(b.height <= lineHeight + 10, `picker row ${i}: ${b.height} px is at most two lines (${lineHeight} px)`);
    assertNoOverflow(await boxes(page().locator('cw-prompt-picker li .line, cw-prompt-picker li .second')), 'picker line');
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await shoot('picker');
  });

  it('the form opens with its Run button in view, fields and placeholders uncut, and no horizontal overflow', async () => {
    await view().send(init({ prompts: prompts(), conversation: history() }));
    await applyVsCodeTheme(page());
    await openPicker();
    await page().locator('cw-prompt-picker li[data-prompt=review]').click();
    const run = page().locator('cw-prompt-form button.run');
    await run.waitFor();
    await page().waitForTimeout(50); // the reveal runs after the form's first render
    const [runBox] = await boxes(run);
    const [listBox] = await boxes(page().locator('cw-message-list'));
    assert.ok(
      runBox.top >= listBox.top && runBox.bottom <= listBox.bottom + 0.5,
      `Run (${runBox.top}–${runBox.bottom}) is visible in the scroll area (${listBox.top}–${listBox.bottom}) without scrolling`,
    );
    assertNoOverflow(await boxes(page().locator('cw-prompt-form .field')), 'form field');
    assertNoOverflow(await boxes(page().locator('cw-prompt-form header')), 'form header');
    const placeholder = await page()
      .locator('cw-prompt-form .field[data-field=path] input')
      .evaluate((input) => {
        input.value = '';
        const s = input.ownerDocument.defaultView.getComputedStyle(input);
        const ctx = input.ownerDocument.createElement('canvas').getContext('2d');
        ctx.font = `${s.fontSize} ${s.fontFamily}`;
        return { text: ctx.measureText(input.placeholder).width, room: input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) };
      });
    assert.ok(placeholder.text <= placeholder.room, `the path placeholder (${placeholder.text} px) fits its input (${placeholder.room} px)`);
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await shoot('form');
  });

  it('Retry and Run again are never cut off inside error boxes; a finished run fits too', async () => {
    const unbroken = `ECONNREFUSED_${'x'.repeat(80)}`;
    await view().send(
      init({
        prompts: prompts(),
        conversation: conversation('c1', [
          user('u1', 'Hello'),
          assistant('a1', '', { status: 'error', error: `Cannot reach http://127.0.0.1:11434/v1: ${unbroken} (${LONG_PATH})` }),
          agentRun('r1', {
            status: 'error',
            error: `step "collect" failed: ${LONG_PATH} ${unbroken}`,
            steps: [step('collect', { tool: 'list_files_with_a_very_long_tool_name', status: 'failed', durationMs: 12, error: 'boom' })],
          }),
          agentRun('r2', {
            answer: 'The module parses YAML into steps.',
            answerTokens: 345,
            tokens: { input: 1_000, output: 234, total: 1_234 },
            durationMs: 5_000,
            steps: [
              step('collect', { title: 'Collect the module files', tool: 'list_files', durationMs: 35 }),
              step('summaries', { title: 'Summarize each file with the tool model', tool: 'llm_map', durationMs: 4_100, tokens: 889 }),
            ],
          }),
        ]),
      }),
    );
    await applyVsCodeTheme(page());
    await page().locator('cw-message[data-id=r2] .run-summary').waitFor();
    const errorBoxes = page().locator('cw-message .error-box');
    assertNoOverflow(await boxes(errorBoxes), 'error box');
    for (const selector of ['cw-message[data-id=a1] .error-box button.retry', 'cw-message[data-id=r1] .error-box button.rerun']) {
      const [button] = await boxes(page().locator(selector));
      const [box] = await boxes(page().locator(selector).locator('xpath=..'));
      assert.ok(
        button.left >= box.left && button.right <= box.right + 0.5,
        `${selector} (${button.left}–${button.right}) inside its box (${box.left}–${box.right})`,
      );
      assert.ok(button.scrollWidth <= button.clientWidth + 1, `${selector}: its label is not cut`);
    }
    assertNoOverflow(await boxes(page().locator('cw-message .run-actions button')), 'run action');
    assertNoOverflow(await boxes(page().locator('cw-message cw-step-list button.row')), 'step row');
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await page().locator('cw-message[data-id=a1]').scrollIntoViewIfNeeded();
    await shoot('errors');
    await page().locator('cw-message[data-id=r2]').scrollIntoViewIfNeeded();
    await shoot('finished-run');
  });
});
