import { strict as assert } from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { agentTurn, approval, toolCall, toolsList } from './support/agentBuilders';
import { agentRun, conversation, init, step, user } from './support/builders';
import { applyVsCodeTheme } from './support/vscodeTheme';
import { useWebview } from './support/webviewPage';

/** `SHOTS_DIR=/tmp/shots` saves 300 px screenshots there, for a reviewer to look at; without it none are taken. */
const SHOTS = process.env.SHOTS_DIR;

interface RowBox {
  scrollWidth: number;
  clientWidth: number;
  right: number;
  metaRight: number;
  metaWidth: number;
  titleWidth: number;
  viewport: number;
}

/** Every row's box. The function runs in the page (and this tsconfig has no DOM types: Playwright gives the elements as `any`). */
async function measure(rows: Locator): Promise<RowBox[]> {
  return rows.evaluateAll((els) =>
    els.map((row) => {
      const box = row.getBoundingClientRect();
      const meta = row.querySelector('.meta').getBoundingClientRect();
      return {
        scrollWidth: row.scrollWidth,
        clientWidth: row.clientWidth,
        right: box.right,
        metaRight: meta.right,
        metaWidth: meta.width,
        titleWidth: row.querySelector('.title').getBoundingClientRect().width,
        viewport: row.ownerDocument.defaultView.innerWidth,
      };
    }),
  );
}

/** The page itself never scrolls sideways. */
const NO_SIDEWAYS_SCROLL = 'document.documentElement.scrollWidth <= window.innerWidth';

function assertFits(rows: RowBox[], what: string): void {
  assert.ok(rows.length > 0, `${what}: rows rendered`);
  for (const [i, r] of rows.entries()) {
    assert.ok(r.scrollWidth <= r.clientWidth + 1, `${what} ${i}: content ${r.scrollWidth} px fits the row ${r.clientWidth} px`);
    assert.ok(r.right <= r.viewport + 0.5, `${what} ${i}: row ends at ${r.right} within the ${r.viewport} px viewport`);
    assert.ok(r.metaRight <= r.right + 0.5, `${what} ${i}: status, duration and tokens are inside the row`);
    assert.ok(r.titleWidth > 20, `${what} ${i}: the title keeps room (${r.titleWidth} px)`);
  }
}

describe('webview: rows at a 300 px sidebar', function () {
  const { view } = useWebview({ viewport: { width: 300, height: 700 } });
  const page = () => view().page;
  const long = 'a/very/long/path/that/goes/on/and/on/through/many/folders/to/reach/a/file/named/something.ts';

  before(() => SHOTS && mkdirSync(SHOTS, { recursive: true }));
  const shoot = async (name: string) => {
    if (SHOTS) await page().screenshot({ path: join(SHOTS, `${name}-300.png`) });
  };

  it('tool-call rows never overflow: title first, the arguments cut, status, duration and tokens visible', async () => {
    const v = view();
    const calls = [
      toolCall('c1', { argsSummary: `path="${long}"`, durationMs: 12_345, tokens: { input: 90_000, output: 3_456, total: 93_456 } }),
      toolCall('c2', {
        displayName: 'Codebase investigator with a rather long display name',
        tool: 'codebase_investigator',
        argsSummary: `task="${long}"`,
        status: 'running',
        durationMs: undefined,
      }),
      toolCall('k1', {
        parentCallId: 'c2',
        displayName: 'Search files',
        argsSummary: `query="${long}"`,
        status: 'error',
        durationMs: 2_400,
        tokens: { input: 1, output: 1, total: 1_234 },
      }),
      toolCall('c3', {
        displayName: 'Edit file',
        kind: 'write',
        status: 'awaiting-approval',
        argsSummary: `path="${long}" old="x" new="y"`,
        durationMs: undefined,
      }),
    ];
    await v.send(
      init({ conversation: conversation('c1', [user('u1', 'Find where b is defined and rename it everywhere in the project')]) }),
      { type: 'chat/mode', mode: 'agent' },
      toolsList(),
    );
    await v.send(
      {
        type: 'agentTurn/started',
        conversationId: 'c1',
        user: user('u2', 'Rename b'),
        turn: agentTurn('t1', { status: 'streaming', createdAt: new Date().toISOString(), toolCalls: calls, reasoning: 'Think first.' }),
      },
      { type: 'agentTurn/warning', turnId: 't1', message: `A warning about ${long} that is long enough to wrap over several lines` },
      approval({ turnId: 't1', callId: 'c3' }),
      { type: 'agentTurn/chunk', turnId: 't1', text: `The helper lives in ${long}:12 and in \`src/b.ts\`.` },
    );
    const rows = page().locator('cw-message[data-id=t1] cw-tool-call-row button.row');
    await page().locator('cw-message[data-id=t1] cw-approval-card').waitFor();
    assertFits(await measure(rows), 'tool row');
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true, 'the page does not scroll sideways');
    // And at VS Code's own font size and theme, where the screenshots are taken.
    await applyVsCodeTheme(page());
    assertFits(await measure(rows), 'tool row (VS Code theme)');
    await shoot('agent-turn-live');
    await rows.first().click();
    await shoot('agent-turn-row-expanded');
    await v.send({
      type: 'agentTurn/done',
      turn: agentTurn('t1', {
        toolCalls: calls.map((c) => ({ ...c, status: c.status === 'error' ? 'error' : 'ok', durationMs: c.durationMs ?? 300 })),
        answer: `The helper lives in ${long}:12 and in \`src/b.ts\`.`,
        tokens: { input: 9_000, output: 345, total: 9_345 },
      }),
    });
    await page().locator('cw-message[data-id=t1] .work-head[aria-expanded=false]').waitFor();
    await page().locator('cw-message[data-id=t1] .answer a.file-link').first().waitFor();
    await shoot('agent-turn-done');
  });

  it('/agent step rows never overflow either: the step title first, status, duration and tokens visible; warnings and run tokens shown', async () => {
    const v = view();
    const run = agentRun('r1', {
      steps: [
        step('collect', { title: 'Collect every source file in the workspace and its folders', tool: 'list_files', durationMs: 35, tokens: 0 }),
        step('summaries', {
          title: 'Summarize each file with the tool model',
          tool: 'llm_map_with_a_long_tool_name',
          durationMs: 123_456,
          tokens: 1_234_567,
          attempts: 3,
          warnings: ['3 files were cut to the size cap'],
        }),
        step(long, { tool: 'llm', status: 'failed', error: 'exit 1' }),
      ],
      warnings: ['3 files were cut to the size cap', 'The answer was cut off at the token limit'],
      tokens: { input: 1_200_000, output: 34_567, total: 1_234_567 },
      answer: 'Done.',
    });
    await v.send(init({ conversation: conversation('c1', [run]) }));
    const rows = page().locator('cw-message[data-id=r1] cw-step-list button.row');
    await rows.first().waitFor();
    assertFits(await measure(rows), 'step row');
    await applyVsCodeTheme(page());
    assertFits(await measure(rows), 'step row (VS Code theme)');
    assert.deepEqual(await page().locator('cw-message[data-id=r1] li.step .title').allTextContents(), [
      'Collect every source file in the workspace and its folders',
      'Summarize each file with the tool model',
      long,
    ]);
    assert.deepEqual(await page().locator('cw-message[data-id=r1] li.step[data-step=summaries] .step-warnings li').allTextContents(), [
      '3 files were cut to the size cap',
    ]);
    assert.deepEqual(
      await page().locator('cw-message[data-id=r1] .run-warnings .warning').allTextContents(),
      ['The answer was cut off at the token limit'],
      'a step warning is not repeated for the run',
    );
    assert.equal(await page().locator('cw-message[data-id=r1] .run-tokens').textContent(), '1,234,567 tokens');
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await shoot('agent-run-steps');
  });

  it('the composer, its popups and the tools panel fit too (screenshots)', async () => {
    const v = view();
    await v.send(init(), { type: 'chat/mode', mode: 'agent' }, toolsList(), {
      type: 'context/add',
      attachment: { kind: 'selection', path: long, startLine: 3, endLine: 9 },
    });
    await applyVsCodeTheme(page());
    await page().locator('cw-composer textarea').click();
    await page().locator('cw-composer textarea').pressSequentially('Explain @');
    await page().locator('cw-composer .popup').waitFor();
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await shoot('composer-mentions');
    await page().locator('cw-composer textarea').press('Escape');
    await page().locator('cw-composer button.tools-button').click();
    await page().locator('cw-tools-panel li').first().waitFor();
    assert.equal(await page().evaluate(NO_SIDEWAYS_SCROLL), true);
    await shoot('tools-panel');
  });
});
