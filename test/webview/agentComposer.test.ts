import { strict as assert } from 'node:assert';
import { agentTurn, toolsList } from './support/agentBuilders';
import { init, user } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: agent-mode composer', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const composer = () => page().locator('cw-composer textarea');
  const popup = () => page().locator('cw-composer .popup');
  const items = () =>
    page()
      .locator('cw-composer .popup [role=option]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-item')));
  const selected = () => page().locator('cw-composer .popup [aria-selected=true]').getAttribute('data-item');
  const chips = () =>
    page()
      .locator('cw-context-chips li.chip')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-chip')));

  beforeEach(async () => {
    await view().send(init(), { type: 'chat/mode', mode: 'agent' }, toolsList());
  });

  it('the Chat/Agent switch follows chat/mode and posts chat/setMode; chat mode sends chat/send', async () => {
    const v = view();
    const pressed = () => page().locator('cw-composer .modes button[aria-pressed=true]').getAttribute('data-mode');
    assert.equal(await pressed(), 'agent');
    await page().locator('cw-composer .modes button[data-mode=chat]').click();
    assert.deepEqual(await v.waitForPosted('chat/setMode'), { type: 'chat/setMode', mode: 'chat' });
    assert.equal(await pressed(), 'chat');
    await composer().fill('plain question');
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('chat/send'), { type: 'chat/send', text: 'plain question' });
    await v.send({ type: 'chat/mode', mode: 'agent' });
    await eventually(async () => assert.equal(await pressed(), 'agent'));
    await composer().fill('agent question');
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/send'), { type: 'agent/send', text: 'agent question', mode: 'agent', mentions: [], attachments: [] });
  });

  it('a question left to rest goes to the host as agent/draft, with its mentions and chips; not again unchanged, never after Enter, for a command, #selection or chat mode; again once an answer ends', async () => {
    const v = view();
    const drafts = async () => (await v.postedOfType('agent/draft')).map((m) => m.text);
    /** Longer than the composer's rest before a draft (DRAFT_DELAY_MS, 600 ms): what is not posted by then is not posted. */
    const rest = () => page().waitForTimeout(1_000);
    /** Writes each text into the composer as typing does (an input event), all in one task: no rest in between. */
    const typeAtOnce = (texts: string[]) =>
      composer().evaluate(
        `(textarea, texts) => {
          for (const text of texts) {
            textarea.value = text;
            textarea.dispatchEvent(new Event('input', { bubbles: true }));
          }
        }`,
        texts,
      );
    const question = 'Where is countWords defined? @read_file';
    await composer().fill(question);
    await composer().press('Escape'); // the @ popup
    assert.deepEqual(await v.waitForPosted('agent/draft'), { type: 'agent/draft', text: question, mentions: ['read_file'], attachments: [] });

    await typeAtOnce([`${question} x`, question]); // changed and back before the composer rests
    await rest();
    assert.deepEqual(await drafts(), [question], 'the same question is not posted again');

    await composer().fill(`${question} #file:src/a.ts `); // typed out: a chip, and the text is the question again
    assert.deepEqual(await v.waitForPosted('agent/draft', 2), {
      type: 'agent/draft',
      text: question,
      mentions: ['read_file'],
      attachments: [{ kind: 'file', path: 'src/a.ts' }],
    });
    await page().locator('cw-context-chips li.chip[data-chip="file:src/a.ts"] button.remove').click();
    assert.deepEqual((await v.waitForPosted('agent/draft', 3)).attachments, [], 'a removed chip changes the draft too');
    await v.send({ type: 'context/add', attachment: { kind: 'file', path: 'lib/x.ts' } }); // Add Selection to Chat, from the host
    assert.deepEqual((await v.waitForPosted('agent/draft', 4)).attachments, [{ kind: 'file', path: 'lib/x.ts' }], 'and one the host added');
    await page().locator('cw-context-chips li.chip[data-chip="file:lib/x.ts"] button.remove').click();
    await v.waitForPosted('agent/draft', 5);
    await composer().fill(`${question} now please`);
    await composer().press('Enter');
    await v.waitForPosted('agent/send');
    await rest();
    const posted = (await v.posted()).map((m) => m.type);
    assert.equal(posted.lastIndexOf('agent/draft') < posted.indexOf('agent/send'), true, 'no draft after Enter (the timer of the typing before it is off)');
    const beforeAnswer = (await drafts()).length;

    // While an answer runs nothing is posted; once it ends, what the composer holds is.
    await v.send({ type: 'agentTurn/started', conversationId: 'c1', user: user('u9', 'q'), turn: agentTurn('t9', { status: 'streaming' }) });
    await composer().fill('And where is topWords defined?');
    await rest();
    assert.equal((await drafts()).length, beforeAnswer, 'no draft while an answer runs');
    await v.send({ type: 'agentTurn/done', turn: agentTurn('t9', { status: 'done', answer: 'In src/frequency.ts.' }) });
    assert.equal((await v.waitForPosted('agent/draft', beforeAnswer + 1)).text, 'And where is topWords defined?');

    for (const text of ['/agent summarize', 'Explain #selection please', 'short']) {
      await composer().fill(text);
      await rest();
      assert.equal((await drafts()).length, beforeAnswer + 1, `no draft for ${JSON.stringify(text)}`);
    }
    await page().locator('cw-composer .modes button[data-mode=chat]').click();
    await composer().fill('A plain question for chat mode');
    await rest();
    assert.equal((await drafts()).length, beforeAnswer + 1, 'no draft in chat mode');
  });

  it('@ opens the enabled agent tools, filters as you type, picks with the keyboard, and the mention is sent', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('Look @');
    assert.deepEqual(await items(), ['read_file', 'search_files', 'edit_file', 'run_command', 'codebase_investigator'], 'workflow-only tools are not offered');
    await composer().pressSequentially('s');
    assert.deepEqual(await items(), ['search_files', 'codebase_investigator'], 'name or display name starts with the query first, then contains it');
    await composer().press('ArrowDown');
    assert.equal(await selected(), 'codebase_investigator');
    await composer().press('ArrowUp');
    await composer().press('Enter');
    assert.equal(await composer().inputValue(), 'Look @search_files ');
    assert.equal(await popup().count(), 0);
    await composer().pressSequentially('for b and @cod');
    await composer().press('Tab');
    await composer().pressSequentially('too, not @nobody');
    await composer().press('Escape');
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Look @search_files for b and @codebase_investigator too, not @nobody',
      mode: 'agent',
      mentions: ['search_files', 'codebase_investigator'],
      attachments: [],
    });
  });

  it('Esc closes the @ popup for that word only: typing goes on closed, a new bare @ opens it again', async () => {
    await composer().click();
    await composer().pressSequentially('@re');
    assert.deepEqual(await items(), ['read_file']);
    await composer().press('Escape');
    assert.equal(await popup().count(), 0);
    await composer().pressSequentially('a');
    assert.equal(await popup().count(), 0, 'still the dismissed word');
    await composer().pressSequentially(' @');
    assert.equal((await items()).length, 5, 'a new @ reopens it');
    await composer().press('Escape');
    await composer().press('Backspace');
    await composer().pressSequentially('@');
    assert.equal((await items()).length, 5, 'the @ typed again after deleting it reopens it too');
  });

  it('in chat mode @ offers nothing', async () => {
    await view().send({ type: 'chat/mode', mode: 'chat' });
    await composer().click();
    await composer().pressSequentially('@');
    assert.equal(await popup().count(), 0);
  });

  it('#file: completes workspace paths (folders walk down) and the picked file becomes a chip sent in attachments', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('Explain #');
    assert.deepEqual(await items(), ['file:', 'selection', 'codebase']);
    await composer().press('Enter');
    assert.equal(await composer().inputValue(), 'Explain #file:');
    const first = await v.waitForPostedMatching('path/suggest', (m) => m.prefix === '');
    await composer().pressSequentially('sr');
    const request = await v.waitForPostedMatching('path/suggest', (m) => m.prefix === 'sr');
    await v.send(
      { type: 'path/suggestions', requestId: first.requestId, items: ['stale/'] },
      { type: 'path/suggestions', requestId: request.requestId, items: ['src/', 'src.md'] },
    );
    await eventually(async () => assert.deepEqual(await items(), ['src/', 'src.md']), 5000);
    await composer().press('Enter');
    assert.equal(await composer().inputValue(), 'Explain #file:src/');
    const inside = await v.waitForPostedMatching('path/suggest', (m) => m.prefix === 'src/');
    await v.send({ type: 'path/suggestions', requestId: inside.requestId, items: ['src/a.ts', 'src/<b>.ts'] });
    await eventually(async () => assert.deepEqual(await items(), ['src/a.ts', 'src/<b>.ts']));
    await composer().press('ArrowDown');
    await composer().press('ArrowUp');
    await composer().press('Tab');
    assert.equal(await composer().inputValue(), 'Explain ');
    assert.deepEqual(await chips(), ['file:src/a.ts']);
    assert.equal(await page().locator('cw-context-chips li.chip .label').textContent(), 'a.ts');
    await composer().pressSequentially('this');
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Explain this',
      mode: 'agent',
      mentions: [],
      attachments: [{ kind: 'file', path: 'src/a.ts' }],
    });
    assert.deepEqual(await chips(), [], 'sent chips are cleared');
  });

  it('#file:path typed out with a space, #selection and Add Selection to Chat add chips; chips are removable', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('Compare #file:lib/x.ts and #selection ');
    assert.equal(await composer().inputValue(), 'Compare and ');
    assert.deepEqual(await chips(), ['file:lib/x.ts', '#selection']);
    await v.send(
      { type: 'context/add', attachment: { kind: 'selection', path: 'src/a.ts', startLine: 3, endLine: 9 } },
      { type: 'context/add', attachment: { kind: 'file', path: 'lib/x.ts' } },
    );
    await eventually(async () =>
      assert.deepEqual(await chips(), ['file:lib/x.ts', '#selection', 'selection:src/a.ts:3-9'], 'the same file is not attached twice'),
    );
    assert.equal(await page().locator('cw-context-chips li.chip[data-chip="selection:src/a.ts:3-9"] .label').textContent(), 'a.ts:3-9');
    await page().locator('cw-context-chips li.chip[data-chip="file:lib/x.ts"] button.remove').click();
    assert.deepEqual(await chips(), ['#selection', 'selection:src/a.ts:3-9']);
    await composer().pressSequentially('them');
    await composer().press('Enter');
    // The #selection chip is the editor's selection when the message is sent: the webview asks for it.
    const { requestId } = await v.waitForPosted('selection/request');
    assert.equal((await v.postedOfType('agent/send')).length, 0, 'the message waits for the answer');
    await v.send({ type: 'selection/current', requestId, selection: { kind: 'selection', path: 'src/b.ts', startLine: 20, endLine: 22 } });
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Compare and them',
      mode: 'agent',
      mentions: [],
      attachments: [
        { kind: 'selection', path: 'src/a.ts', startLine: 3, endLine: 9 },
        { kind: 'selection', path: 'src/b.ts', startLine: 20, endLine: 22 },
      ],
    });
  });

  it("a typed #selection attaches the editor's selection at send time, in chat mode too, with no chip and no Add Selection to Chat", async () => {
    const v = view();
    await v.send({ type: 'chat/mode', mode: 'chat' });
    await composer().fill('Explain #selection in detail');
    await composer().press('Enter');
    const { requestId } = await v.waitForPosted('selection/request');
    assert.equal(await composer().inputValue(), '', 'the composer is cleared at once');
    await v.send({ type: 'selection/current', requestId: 'an-older-request', selection: { kind: 'selection', path: 'old.ts', startLine: 1, endLine: 1 } });
    await v.send({ type: 'selection/current', requestId, selection: { kind: 'selection', path: 'src/a.ts', startLine: 3, endLine: 9 } });
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Explain #selection in detail',
      mode: 'chat',
      mentions: [],
      attachments: [{ kind: 'selection', path: 'src/a.ts', startLine: 3, endLine: 9 }],
    });
    assert.equal((await v.postedOfType('agent/send')).length, 1, 'an answer to another request sends nothing');
    assert.equal((await v.postedOfType('chat/send')).length, 0);
  });

  it('with nothing selected the message is not sent: it comes back to the composer with the reason', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('Refactor #selection please');
    await composer().press('Enter');
    const { requestId } = await v.waitForPosted('selection/request');
    await v.send({ type: 'selection/current', requestId, problem: '#selection: nothing is selected in the editor; select some lines first.' });
    await eventually(async () => assert.match((await page().locator('cw-notices .notice.error').textContent()) ?? '', /nothing is selected in the editor/));
    assert.equal(await composer().inputValue(), 'Refactor please');
    assert.deepEqual(await chips(), ['#selection'], 'the chip comes back too');
    assert.deepEqual([...(await v.postedOfType('agent/send')), ...(await v.postedOfType('chat/send'))], []);
  });

  it('a host that does not answer: after a moment the message goes as before and the host reads #selection itself', async () => {
    const v = view();
    await composer().click();
    await composer().pressSequentially('Explain #selection ');
    await composer().pressSequentially('now');
    await composer().press('Enter');
    await v.waitForPosted('selection/request');
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Explain now\n#selection',
      mode: 'agent',
      mentions: [],
      attachments: [],
    });
  });

  it('chips in chat mode send agent/send with mode chat', async () => {
    const v = view();
    await v.send({ type: 'chat/mode', mode: 'chat' }, { type: 'context/add', attachment: { kind: 'file', path: 'README.md' } });
    await composer().fill('Summarize @read_file');
    await composer().press('Enter');
    assert.deepEqual(await v.waitForPosted('agent/send'), {
      type: 'agent/send',
      text: 'Summarize @read_file',
      mode: 'chat',
      mentions: [],
      attachments: [{ kind: 'file', path: 'README.md' }],
    });
  });
});
