import { strict as assert } from 'node:assert';
import { assistant, conversation, init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: composer and slash popup', function () {
  const { view } = useWebview();

  const composer = () => view().page.locator('cw-composer textarea');
  const options = () => view().page.locator('cw-composer .popup [role=option]');
  const selected = () => view().page.locator('cw-composer .popup [aria-selected=true]').getAttribute('data-command');

  beforeEach(async () => {
    await view().send(init({ conversation: conversation('c1', [user('u1', 'hi'), assistant('a1', 'hello')]) }));
  });

  it('typing / opens the commands; ArrowDown/ArrowUp move with wrap-around; Esc closes', async () => {
    await composer().click();
    await composer().pressSequentially('/');
    assert.deepEqual(await options().evaluateAll((els) => els.map((e) => e.getAttribute('data-command'))), ['agent', 'new', 'history', 'help']);
    assert.equal(await selected(), 'agent');
    await composer().press('ArrowDown');
    assert.equal(await selected(), 'new');
    await composer().press('ArrowDown');
    await composer().press('ArrowDown');
    await composer().press('ArrowDown');
    assert.equal(await selected(), 'agent', 'wraps from the last to the first');
    await composer().press('ArrowUp');
    assert.equal(await selected(), 'help', 'wraps from the first to the last');
    await composer().press('Escape');
    assert.equal(await options().count(), 0);
    assert.equal(await composer().inputValue(), '/', 'Esc closes the popup and keeps the text');
    await composer().pressSequentially('h');
    assert.deepEqual(await options().evaluateAll((els) => els.map((e) => e.getAttribute('data-command'))), ['history', 'help'], 'typing reopens it, filtered');
  });

  it('Enter picks /new: posts conversation/new and clears the view and the composer', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('/');
    await composer().press('ArrowDown');
    await composer().press('Enter');
    await v.waitForPosted('conversation/new');
    assert.equal(await composer().inputValue(), '');
    assert.equal(await v.page.locator('cw-message').count(), 0);
    assert.equal((await v.postedOfType('chat/send')).length, 0, 'Enter picked the command, it sent nothing');
  });

  it('Tab picks /history: shows the history panel and requests the list', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('/hi');
    await composer().press('Tab');
    assert.deepEqual(await v.waitForPosted('history/request'), { type: 'history/request', query: '' });
    await v.page.locator('cw-history').waitFor();
  });

  it('/help shows a local help message and posts nothing', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('/help');
    await composer().press('Enter');
    const help = v.page.locator('cw-notices .notice[data-kind=help]');
    assert.match((await help.textContent()) ?? '', /\/agent/);
    assert.deepEqual(
      (await v.posted()).map((m) => m.type),
      ['webview/ready'],
    );
    await help.locator('button.dismiss').click();
    assert.equal(await help.count(), 0);
  });

  it('Enter sends a chat message; Shift+Enter adds a line; the draft survives a reload through setState', async () => {
    const v = view();
    await v.send({ type: 'chat/mode', mode: 'chat' });
    await composer().click();
    await composer().pressSequentially('first line');
    await composer().press('Shift+Enter');
    await composer().pressSequentially('second');
    await eventually(async () => assert.deepEqual(((await v.savedState()) as { draft: string }).draft, 'first line\nsecond'));
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('chat/send'), { type: 'chat/send', text: 'first line\nsecond' });
    assert.equal(await composer().inputValue(), '');
  });

  it('an unknown command keeps the text and says so', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('/frobnicate now');
    await composer().press('Enter');
    assert.match((await v.page.locator('cw-notices .notice[data-kind=error]').textContent()) ?? '', /Unknown command/);
    assert.equal(await composer().inputValue(), '/frobnicate now');
  });
});

describe('webview: UI state restored after a reload', function () {
  const { view } = useWebview({ state: { version: 1, draft: 'half-typed question', panel: 'chat', pickerQuery: '', historyQuery: '' } });

  it('restores the composer draft from getState', async () => {
    await view().send(init());
    assert.equal(await view().page.locator('cw-composer textarea').inputValue(), 'half-typed question');
  });
});
