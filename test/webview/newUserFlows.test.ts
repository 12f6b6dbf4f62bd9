import { strict as assert } from 'node:assert';
import type { PromptSummary } from '../../src/shared/protocol';
import { agentRun, assistant, conversation, everyControlPrompt, init, simplePrompt, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

/** A broken workspace prompt as the host now sends it: the location apart, the path relative to the workspace. */
const brokenWithLocation = (): PromptSummary => ({
  id: 'broken',
  title: 'Broken prompt',
  description: '',
  source: 'workspace',
  inputs: [],
  error: '.codewiki/prompts/broken.yaml:3:11: tool_chain[0].tool: unknown tool "raed_file"; did you mean "read_file"?',
  errorAt: { path: '.codewiki/prompts/broken.yaml', line: 3, column: 11, message: 'tool_chain[0].tool: unknown tool "raed_file"; did you mean "read_file"?' },
});

/** Issue 10 §3: what a new user trips on, one behaviour per test. */
describe('webview: what a new user trips on', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const composer = () => page().locator('cw-composer textarea');
  const field = (name: string) => page().locator(`cw-prompt-form .field[data-field=${name}]`);

  async function typeCommand(text: string): Promise<void> {
    await composer().click();
    await composer().fill(text);
    await composer().press('Enter');
  }

  describe('saying what is true in each mode', () => {
    it('the empty state in chat mode does not promise workspace answers; in agent mode it says the model reads files', async () => {
      const v = view();
      await v.send(init(), { type: 'chat/mode', mode: 'chat' });
      const welcome = page().locator('cw-empty-state .welcome');
      await welcome.waitFor();
      const chatText = (await welcome.textContent()) ?? '';
      assert.doesNotMatch(chatText, /Ask about your workspace/);
      assert.match(chatText, /does not read your workspace/);
      await v.send({ type: 'chat/mode', mode: 'agent' });
      await eventually(async () => assert.match((await welcome.textContent()) ?? '', /searches and reads your workspace files/));
    });

    it('/help is a message after the conversation (not a pinned panel), says what the mode does and gives an example that names a real prompt', async () => {
      const v = view();
      await v.send(init({ conversation: conversation('c1', [user('u1', 'hi'), assistant('a1', 'hello')]) }), { type: 'chat/mode', mode: 'chat' });
      await typeCommand('/help');
      const help = page().locator('cw-message-list cw-notices .notice[data-kind=help]');
      await help.waitFor();
      const text = (await help.textContent()) ?? '';
      assert.match(text, /does not read your workspace/);
      assert.doesNotMatch(text, /answers questions about your workspace/);
      assert.doesNotMatch(text, /summarize path=src/, 'the old example matched no prompt');
      const example = /\/agent (\S+) (\w+)=/.exec(text);
      assert.ok(example, `an example with a prompt and an input: ${text}`);
      const prompt = [everyControlPrompt(), simplePrompt('summarize', 'Summarize a folder')].find((p) => p.id === example[1]);
      assert.ok(prompt, `the example's prompt ${example[1]} exists`);
      assert.ok(
        prompt.inputs.some((f) => f.name === example[2]),
        `the example's input ${example[2]} exists`,
      );
      assert.equal(await page().locator('cw-app > cw-notices .notice[data-kind=help]').count(), 0, 'not pinned above the input');
      await v.send({ type: 'chat/mode', mode: 'agent' });
      await typeCommand('/help');
      await eventually(async () => assert.match((await help.textContent()) ?? '', /searches and reads your workspace files/));
    });
  });

  describe('the composer', () => {
    it('ArrowUp in an empty input recalls the last message; with text it moves the caret as usual', async () => {
      const v = view();
      await v.send(init(), { type: 'chat/mode', mode: 'chat' });
      await typeCommand('Where is the parser?');
      await v.waitForPosted('chat/send');
      assert.equal(await composer().inputValue(), '');
      await composer().press('ArrowUp');
      assert.equal(await composer().inputValue(), 'Where is the parser?');
      await composer().fill('other text');
      await composer().press('ArrowUp');
      assert.equal(await composer().inputValue(), 'other text', 'a draft is never replaced');
    });

    it('ArrowUp recalls the conversation’s last question after a reload', async () => {
      await view().send(
        init({ conversation: conversation('c1', [user('u1', 'first'), assistant('a1', 'one'), user('u2', 'second question'), assistant('a2', 'two')]) }),
      );
      await composer().click();
      await composer().press('ArrowUp');
      assert.equal(await composer().inputValue(), 'second question');
    });

    it('after Esc on a bare /, clearing the input and typing / again reopens the popup', async () => {
      await view().send(init());
      const options = page().locator('cw-composer .popup [role=option]');
      await composer().click();
      await composer().pressSequentially('/');
      await options.first().waitFor();
      await composer().press('Escape');
      assert.equal(await options.count(), 0);
      await composer().press('Backspace');
      await composer().pressSequentially('/');
      await eventually(async () => assert.equal(await options.count(), 4, 'the popup is back'));
    });
  });

  describe('the /agent form', () => {
    it('opens without errors; leaving an untouched field says nothing; leaving a field the user emptied shows its message', async () => {
      await view().send(init());
      await typeCommand('/agent review');
      await page().locator('cw-prompt-form').waitFor();
      assert.equal(await page().locator('cw-prompt-form .field-error').count(), 0, 'not red on open');
      await field('topic').locator('input').focus();
      await page().keyboard.press('Tab');
      assert.equal(await page().locator('cw-prompt-form .field-error').count(), 0, 'an untouched field waits for Run');
      await field('depth').locator('input').fill('');
      await field('depth').locator('input').press('Tab');
      await eventually(async () => assert.equal(await field('depth').locator('.field-error').textContent(), 'Depth is required.'));
      assert.equal(await field('topic').locator('.field-error').count(), 0);
    });

    it('reopening the form fills in the inputs of the last run', async () => {
      const v = view();
      await v.send(init());
      await typeCommand('/agent review');
      await field('topic').locator('input').fill('naming');
      await field('depth').locator('input').fill('5');
      await field('strict').locator('input').uncheck();
      await page().locator('cw-prompt-form button.run').click();
      await v.waitForPosted('promptRun/start');
      await typeCommand('/agent');
      await page().locator('cw-prompt-picker li[data-prompt=review]').click();
      await page().locator('cw-prompt-form').waitFor();
      assert.equal(await field('topic').locator('input').inputValue(), 'naming');
      assert.equal(await field('depth').locator('input').inputValue(), '5');
      assert.equal(await field('strict').locator('input').isChecked(), false);
    });

    it('without a run from this view, the form takes the inputs of the conversation’s last run of that prompt', async () => {
      await view().send(init({ conversation: conversation('c1', [agentRun('r1', { promptId: 'summarize', inputs: { path: 'lib/util' } })]) }));
      await typeCommand('/agent');
      await page().locator('cw-prompt-picker li[data-prompt=summarize]').click();
      assert.equal(await field('path').locator('input').inputValue(), 'lib/util');
    });
  });

  describe('finished runs', () => {
    it('done and stopped runs offer Run again (same inputs) and Edit inputs… (the form, filled in)', async () => {
      const v = view();
      await v.send(
        init({
          conversation: conversation('c1', [
            agentRun('done', { promptId: 'summarize', inputs: { path: 'src/a' }, answer: 'A summary.' }),
            agentRun('stopped', { promptId: 'summarize', inputs: { path: 'src/b' }, status: 'stopped' }),
          ]),
        }),
      );
      const rerun = (id: string) => page().locator(`cw-message[data-id=${id}] .run-actions button[data-action=rerun]`);
      await rerun('stopped').click();
      assert.deepEqual(await v.waitForPosted('promptRun/start'), { type: 'promptRun/start', promptId: 'summarize', inputs: { path: 'src/b' } });
      await rerun('done').click();
      assert.deepEqual((await v.waitForPosted('promptRun/start', 2)).inputs, { path: 'src/a' });
      await page().locator('cw-message[data-id=done] .run-actions button[data-action=edit-inputs]').click();
      await page().locator('cw-prompt-form').waitFor();
      assert.equal(await field('path').locator('input').inputValue(), 'src/a');
    });

    it('shows the answer’s tokens and the run’s total and time, as the CLI prints them; a chat answer shows its tokens', async () => {
      await view().send(
        init({
          conversation: conversation('c1', [
            agentRun('r1', { answer: 'Done.', answerTokens: 345, tokens: { input: 1_000, output: 234, total: 1_234 }, durationMs: 5_000 }),
            user('u1', 'hi'),
            assistant('a1', 'hello', { usage: { input: 30, output: 12, total: 42 } }),
          ]),
        }),
      );
      const summary = page().locator('cw-message[data-id=r1] .run-summary');
      assert.deepEqual(await summary.locator('span').allTextContents(), ['Answer: 345 tokens', 'Run: 1,234 tokens in 5.0 s']);
      assert.equal(await page().locator('cw-message[data-id=a1] .answer-tokens').textContent(), '42 tokens');
    });
  });

  describe('picker errors', () => {
    it('a broken prompt shows the message and its relative location; clicking it opens the file at the error', async () => {
      const v = view();
      await v.send(init({ prompts: [everyControlPrompt(), brokenWithLocation()] }));
      await typeCommand('/agent');
      const row = page().locator('cw-prompt-picker li[data-prompt=broken]');
      assert.equal(await row.locator('.prompt-error').textContent(), 'tool_chain[0].tool: unknown tool "raed_file"; did you mean "read_file"?');
      assert.equal(await row.locator('.where').textContent(), 'line 3');
      assert.match((await row.getAttribute('title')) ?? '', /^\.codewiki\/prompts\/broken\.yaml:3:11: /, 'the whole error, with the relative path, on hover');
      await row.click({ force: true });
      assert.deepEqual(await v.waitForPosted('file/open'), { type: 'file/open', path: '.codewiki/prompts/broken.yaml', line: 3 });
      assert.equal(await page().locator('cw-prompt-form').count(), 0);
    });
  });

  describe('light theme', () => {
    it('the selected slash-popup row’s description is readable on the selection colour (contrast ≥ 4.5)', async () => {
      await view().send(init());
      // VS Code's Light+ colours for the quick-input list and descriptions.
      await page().evaluate(`(() => {
        const vars = { '--vscode-quickInput-background': '#f3f3f3', '--vscode-quickInput-foreground': '#616161', '--vscode-descriptionForeground': '#717171',
          '--vscode-quickInputList-focusBackground': '#0060c0', '--vscode-quickInputList-focusForeground': '#ffffff', '--vscode-foreground': '#616161' };
        for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      })()`);
      await composer().click();
      await composer().pressSequentially('/');
      const colours = await page()
        .locator('cw-composer .popup li[aria-selected=true]')
        .evaluate((li) => {
          const view = li.ownerDocument.defaultView;
          const muted = view.getComputedStyle(li.querySelector('.muted'));
          return { fg: muted.color, opacity: muted.opacity, bg: view.getComputedStyle(li).backgroundColor };
        });
      const ratio = contrast(blend(rgb(colours.fg), rgb(colours.bg), Number(colours.opacity)), rgb(colours.bg));
      assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)} (${colours.fg} on ${colours.bg})`);
    });
  });
});

function rgb(css: string): [number, number, number] {
  const parts = /rgba?\(([^)]+)\)/
    .exec(css)?.[1]
    .split(',')
    .map((p) => Number(p.trim())) ?? [0, 0, 0];
  return [parts[0], parts[1], parts[2]];
}

function blend(fg: [number, number, number], bg: [number, number, number], alpha: number): [number, number, number] {
  return [0, 1, 2].map((i) => fg[i] * alpha + bg[i] * (1 - alpha)) as [number, number, number];
}

/** WCAG 2 contrast ratio. */
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const lum = (c: [number, number, number]) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
