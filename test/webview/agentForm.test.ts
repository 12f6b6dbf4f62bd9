import { strict as assert } from 'node:assert';
import { init } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: /agent picker and form', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const composer = () => page().locator('cw-composer textarea');
  const field = (name: string) => page().locator(`cw-prompt-form .field[data-field=${name}]`);

  beforeEach(async () => {
    await view().send(init());
  });

  async function typeCommand(text: string): Promise<void> {
    await composer().click();
    await composer().fill(text);
    await composer().press('Enter');
  }

  async function openForm(promptId: string): Promise<void> {
    await typeCommand('/agent');
    await page().locator(`cw-prompt-picker li[data-prompt=${promptId}]`).click();
    await page().locator('cw-prompt-form').waitFor();
  }

  it('the picker searches prompts; an invalid one shows its error and cannot be opened', async () => {
    await typeCommand('/agent');
    const picker = page().locator('cw-prompt-picker');
    assert.deepEqual(await picker.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-prompt'))), ['review', 'summarize', 'broken']);
    const search = picker.locator('input[type=search]');
    await search.pressSequentially('folder');
    await eventually(async () =>
      assert.deepEqual(await picker.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-prompt'))), ['summarize']),
    );
    await search.fill('broken');
    const broken = picker.locator('li[data-prompt=broken]');
    assert.match((await broken.locator('.prompt-error').textContent()) ?? '', /broken\.yaml:3:5/);
    assert.equal(await broken.getAttribute('aria-disabled'), 'true');
    await broken.click({ force: true }); // Playwright itself refuses to click an aria-disabled item; a user can still try
    await search.press('Enter');
    assert.equal(await page().locator('cw-prompt-form').count(), 0, 'an invalid prompt opens no form');
    await search.fill('review');
    await search.press('Enter');
    await page().locator('cw-prompt-form').waitFor();
  });

  it('the form has a control per input type, filled with the defaults', async () => {
    await openForm('review');
    assert.equal(await field('topic').locator('input[type=text]').inputValue(), '');
    assert.equal(await field('notes').locator('textarea').inputValue(), 'line one');
    assert.equal(await field('path').locator('input[role=combobox]').inputValue(), 'src');
    assert.equal(await field('path').locator('button.browse').count(), 1);
    assert.equal(await field('depth').locator('input[type=number]').inputValue(), '2');
    assert.equal(await field('strict').locator('input[type=checkbox]').isChecked(), true);
    assert.equal(await field('level').locator('select').inputValue(), 'high');
    assert.deepEqual(await field('level').locator('option').allTextContents(), ['low', 'high', '3']);
  });

  it('required fields are checked before running: Run posts nothing and each field shows its message', async () => {
    const v = view();
    await openForm('review');
    await field('path').locator('input').fill('');
    await field('depth').locator('input').fill('');
    await page().locator('cw-prompt-form button.run').click();
    assert.equal(await field('topic').locator('.field-error').textContent(), 'Topic is required.');
    assert.equal(await field('path').locator('.field-error').textContent(), 'Path is required.');
    assert.equal(await field('depth').locator('.field-error').textContent(), 'Depth is required.');
    assert.equal(await field('notes').locator('.field-error').count(), 0);
    assert.equal(await field('topic').locator('input').getAttribute('aria-invalid'), 'true');
    assert.match((await page().locator('cw-prompt-form .summary').textContent()) ?? '', /3 fields/);
    assert.equal((await v.postedOfType('promptRun/start')).length, 0);
    await field('topic').locator('input').fill('naming');
    assert.equal(await field('topic').locator('.field-error').count(), 0, 'editing a field clears its message');
  });

  it('Run posts typed values (number, boolean, select option) and closes the form', async () => {
    const v = view();
    await openForm('review');
    await field('topic').locator('input').fill('naming');
    await field('notes').locator('textarea').fill('a\nb');
    await field('depth').locator('input').fill('3.5');
    await field('strict').locator('input').uncheck();
    await field('level').locator('select').selectOption('3');
    await page().locator('cw-prompt-form button.run').click();
    assert.deepEqual(await v.waitForPosted('promptRun/start'), {
      type: 'promptRun/start',
      promptId: 'review',
      inputs: { topic: 'naming', notes: 'a\nb', path: 'src', depth: 3.5, strict: false, level: 3 },
    });
    assert.equal(await page().locator('cw-prompt-form').count(), 0);
  });

  it('Cancel closes the form without running', async () => {
    const v = view();
    await openForm('review');
    await page().locator('cw-prompt-form button.cancel').click();
    assert.equal(await page().locator('cw-prompt-form').count(), 0);
    assert.equal((await v.postedOfType('promptRun/start')).length, 0);
  });

  it('path autocomplete: typing posts path/suggest, the suggestions show, picking one fills the field', async () => {
    const v = view();
    await openForm('review');
    const input = field('path').locator('input');
    await input.fill('');
    await input.pressSequentially('src/co');
    const request = await v.waitForPostedMatching('path/suggest', (m) => m.prefix === 'src/co');
    await v.send({ type: 'path/suggestions', requestId: 'stale', items: ['ignored'] });
    await v.send({ type: 'path/suggestions', requestId: request.requestId, items: ['src/core/', 'src/cli.ts'] });
    const items = field('path').locator('.suggestions li');
    await eventually(async () => assert.deepEqual(await items.allTextContents(), ['src/core/', 'src/cli.ts']));
    await input.press('ArrowDown');
    await input.press('ArrowDown');
    await input.press('Enter');
    assert.equal(await input.inputValue(), 'src/cli.ts');
    assert.equal(await items.count(), 0);
    assert.equal(await page().locator('cw-prompt-form').count(), 1, 'Enter picked the suggestion and did not submit');
    await input.fill('');
    await input.pressSequentially('sr');
    const second = await v.waitForPostedMatching('path/suggest', (m) => m.prefix === 'sr');
    await v.send({ type: 'path/suggestions', requestId: second.requestId, items: ['src/'] });
    await items.first().click();
    assert.equal(await input.inputValue(), 'src/');
    const drill = await v.waitForPostedMatching('path/suggest', (m) => m.requestId !== second.requestId && m.prefix === 'src/');
    assert.ok(drill, 'picking a folder asks for its children');
  });

  it('Browse… posts path/browse and fills the field from path/picked', async () => {
    const v = view();
    await openForm('review');
    await field('path').locator('button.browse').click();
    const browse = await v.waitForPosted('path/browse');
    assert.equal(browse.kind, 'any');
    await v.send({ type: 'path/picked', requestId: browse.requestId, path: 'docs/guide.md' });
    await eventually(async () => assert.equal(await field('path').locator('input').inputValue(), 'docs/guide.md'));
    await field('path').locator('button.browse').click();
    const cancelled = await v.waitForPosted('path/browse', 2);
    await v.send({ type: 'path/picked', requestId: cancelled.requestId });
    assert.equal(await field('path').locator('input').inputValue(), 'docs/guide.md', 'a cancelled dialog keeps the value');
  });

  it('/agent <id> name=value … runs directly when every required input is given', async () => {
    const v = view();
    await typeCommand('/agent review topic="error handling" depth=4 strict=no level=low');
    assert.deepEqual(await v.waitForPosted('promptRun/start'), {
      type: 'promptRun/start',
      promptId: 'review',
      inputs: { topic: 'error handling', notes: 'line one', path: 'src', depth: 4, strict: false, level: 'low' },
    });
    assert.equal(await page().locator('cw-prompt-form').count(), 0);
    assert.equal(await composer().inputValue(), '');
  });

  it('/agent <id> with a required input missing opens the form filled in, not in red; Run then shows the message', async () => {
    const v = view();
    await typeCommand('/agent review depth=7');
    await page().locator('cw-prompt-form').waitFor();
    assert.equal(await field('depth').locator('input').inputValue(), '7');
    assert.equal(await page().locator('cw-prompt-form .field-error').count(), 0, 'no error before the user tried');
    await page().locator('cw-prompt-form button.run').click();
    assert.equal(await field('topic').locator('.field-error').textContent(), 'Topic is required.');
    assert.equal((await v.postedOfType('promptRun/start')).length, 0);
  });

  it('/agent <id> bare-word fills the required input (summarize src)', async () => {
    const v = view();
    await typeCommand('/agent summarize lib/util');
    assert.deepEqual(await v.waitForPosted('promptRun/start'), { type: 'promptRun/start', promptId: 'summarize', inputs: { path: 'lib/util' } });
  });

  it('ui/show from the host (Run Action Prompt…) opens the form of the chosen prompt', async () => {
    await view().send({ type: 'ui/show', view: 'agent', promptId: 'summarize' });
    await page().locator('cw-prompt-form').waitFor();
    assert.equal(await page().locator('cw-prompt-form header .title').textContent(), 'Summarize a folder');
  });
});
