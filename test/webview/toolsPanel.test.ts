import { strict as assert } from 'node:assert';
import { tool, toolsList } from './support/agentBuilders';
import { init } from './support/builders';
import { eventually, useWebview } from './support/webviewPage';

describe('webview: tools panel', function () {
  const { view } = useWebview();
  const page = () => view().page;
  const panel = () => page().locator('cw-tools-panel');
  const row = (name: string) => panel().locator(`li[data-tool=${name}]`);
  const toggle = (name: string) => row(name).locator('input[role=switch]');

  async function open(): Promise<void> {
    await page().locator('cw-composer button.tools-button').click();
    await panel().waitFor();
  }

  beforeEach(async () => {
    await view().send(init(), { type: 'chat/mode', mode: 'agent' }, toolsList());
  });

  it('opens from the composer, asks for the list, shows each tool with its kind; workflow-only tools are disabled with a note', async () => {
    const v = view();
    assert.equal((await page().locator('cw-composer button.tools-button .count').textContent())?.trim(), '5');
    await v.clearPosted();
    await open();
    await v.waitForPosted('tools/request');
    assert.deepEqual(
      await panel()
        .locator('li')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tool'))),
      ['read_file', 'search_files', 'edit_file', 'run_command', 'codebase_investigator', 'summarize_folder'],
    );
    assert.deepEqual(await panel().locator('li .kind').allTextContents(), ['read', 'read', 'write', 'execute', 'think', 'think']);
    assert.equal(await panel().locator('.count').textContent(), '5 of 5 on');
    assert.equal(await toggle('summarize_folder').isDisabled(), true);
    assert.equal(await toggle('summarize_folder').isChecked(), false);
    assert.match((await row('summarize_folder').locator('.note').textContent()) ?? '', /agent cannot call/);
    assert.equal(await toggle('read_file').isChecked(), true);
    await panel().locator('button.back').click();
    await page().locator('cw-composer textarea').waitFor();
    assert.equal(await panel().count(), 0);
  });

  it('switches post tools/toggle, the master switch tools/setEnabled, and the new-tools switch tools/setEnableNewTools', async () => {
    const v = view();
    await open();
    await toggle('run_command').click();
    assert.deepEqual(await v.waitForPosted('tools/toggle'), { type: 'tools/toggle', name: 'run_command', enabled: false });
    assert.equal(await toggle('run_command').isChecked(), false);
    assert.equal(await panel().locator('.count').textContent(), '4 of 5 on');
    await row('run_command').locator('label.name').click();
    assert.deepEqual(await v.waitForPosted('tools/toggle', 2), { type: 'tools/toggle', name: 'run_command', enabled: true });
    await panel().locator('.master input').click();
    assert.deepEqual(await v.waitForPosted('tools/setEnabled'), { type: 'tools/setEnabled', enabled: false });
    await panel().locator('.off').waitFor();
    await panel().locator('.new-tools input').press('Space');
    assert.deepEqual(await v.waitForPosted('tools/setEnableNewTools'), { type: 'tools/setEnableNewTools', enabled: false });
    // The host's answer wins over what was shown.
    await v.send(toolsList({ enabled: true, enableNewTools: true }));
    await eventually(async () => assert.equal(await panel().locator('.master input').isChecked(), true));
  });

  it('descriptions and names from workspace files stay text', async () => {
    const v = view();
    await v.send(
      toolsList({
        tools: [
          tool('custom_tool', { displayName: '<b>Custom</b>', description: '<img src=x onerror="window.__pwned=1"> does <i>things</i>', category: 'custom' }),
        ],
      }),
    );
    await open();
    assert.equal(await row('custom_tool').locator('.description').textContent(), '<img src=x onerror="window.__pwned=1"> does <i>things</i>');
    assert.equal(await row('custom_tool').locator('.name').textContent(), '<b>Custom</b>');
    assert.equal(await panel().locator('img, b, i').count(), 0);
    assert.equal(await page().evaluate(() => (globalThis as { __pwned?: number }).__pwned), undefined);
  });

  it('says why when the tools are unavailable', async () => {
    const v = view();
    await v.send(toolsList({ tools: [], unavailable: 'Restricted Mode: trust this workspace to use its tools.' }));
    await open();
    assert.equal(await panel().locator('.unavailable-reason').textContent(), 'Restricted Mode: trust this workspace to use its tools.');
    assert.equal(await panel().locator('input').count(), 0);
  });
});
