import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_AGENT_MODE_SETTINGS, type AgentModeSettings } from '../../src/core/session/agentModeSettings';
import { ToolTesterService } from '../../src/core/toolTester/toolTesterService';
import { onlyTools } from '../../src/core/tools/toolToggles';
import type { HostToTester, TesterToHost } from '../../src/shared/toolTesterProtocol';
import { ScriptedGate } from '../agent/agentHarness';
import { testerWorkspace } from '../toolTester/toolTesterFixture';
import { eventually, useWebview, type PageGlobals } from './support/webviewPage';

const BLOCK = '<<<[TOOL_REQUEST]>>>\ntool_name: 「始」read_file「末」\npath: 「始」README.md「末」\n<<<[END_TOOL_REQUEST]>>>';

/**
 * The Tool Tester page in Chromium, answered by the real ToolTesterService over a real workspace:
 * the test plays the extension's panel, moving messages between the two.
 */
describe('webview: Tool Tester', function () {
  const { view } = useWebview({ page: 'tester', viewport: { width: 900, height: 900 } });
  const page = () => view().page;
  let fixture: Awaited<ReturnType<typeof testerWorkspace>>;
  let settings: AgentModeSettings;
  let gate: ScriptedGate;
  let service: ToolTesterService;

  const send = (...messages: HostToTester[]) =>
    page().evaluate((list) => {
      for (const message of list) (globalThis as unknown as PageGlobals).postMessage(message, '*');
    }, messages);
  const posted = async () => (await page().evaluate(() => (globalThis as unknown as PageGlobals).__posted)) as unknown as TesterToHost[];
  const waitFor = <T extends TesterToHost['type']>(type: T) =>
    eventually(async () => {
      const found = (await posted()).filter((m): m is Extract<TesterToHost, { type: T }> => m.type === type);
      assert.ok(found.length, `posted ${type}`);
      return found[found.length - 1]!;
    });
  const sendState = async () => send({ type: 'tester/state', state: await service.state() });
  const text = (selector: string) => page().locator(`cw-tool-tester ${selector}`).first().innerText();

  beforeEach(async () => {
    fixture = await testerWorkspace();
    settings = { ...DEFAULT_AGENT_MODE_SETTINGS };
    gate = new ScriptedGate();
    service = new ToolTesterService({
      engine: async () => ({ engine: fixture.engine }),
      settings: () => settings,
      probeTarget: async () => ({ unavailable: 'unused' }),
      gate,
    });
    await waitFor('tester/ready');
    await sendState();
  });
  afterEach(() => fixture.cleanup());

  it('lists the tools with kind, category, agent-callable and schema; the preview changes with the toggles', async () => {
    const row = page().locator('cw-tool-tester tr[data-tool=read_file]');
    assert.match(await row.innerText(), /read\s+file[\s\S]*read[\s\S]*yes/i);
    assert.match(await page().locator('cw-tool-tester tr[data-tool=file_selector_llm_tool] .callable').innerText(), /no \(workflow only\)/);
    await row.locator('summary').click();
    assert.match(await row.locator('pre.schema').innerText(), /"required": \[\s*"path"\s*\]/);
    assert.match(await text('pre.tools-json'), /"name": "read_file"/);

    await page().locator('cw-tool-tester .tabs button[data-protocol=text]').click();
    assert.match(await text('pre.system-prompt'), /tool_name: 「始」read_file「末」/);
    assert.match(await text('.tools-json-none'), /None: under the text protocol/);

    await row.locator('input[role=switch]').uncheck();
    assert.deepEqual(await waitFor('tester/toggle'), { type: 'tester/toggle', name: 'read_file', enabled: false });
    // The extension writes the setting, and its configuration listener sends the new state.
    settings = { ...settings, toggles: onlyTools(['list_files']) };
    await sendState();
    await eventually(async () => assert.doesNotMatch(await text('pre.system-prompt'), /tool_name: 「始」read_file「末」/));
    assert.match(await text('pre.system-prompt'), /tool_name: 「始」list_files「末」/);
  });

  it('a pasted block is parsed, validated and run: the parse, the approval, the raw result and the duration', async () => {
    await page().locator('cw-tool-tester textarea.pasted').fill(BLOCK);
    await page().locator('cw-tool-tester button.parse').click();
    const parse = await waitFor('tester/parse');
    assert.equal(parse.text, BLOCK);
    await send({ type: 'tester/parsed', requestId: parse.requestId, parse: await service.parse(parse.text) });
    await eventually(async () => assert.match(await text('.parse-form'), /a text-protocol block, 1 call/));
    assert.equal(await text('.call .validity'), 'valid');
    assert.match(await text('.call pre.args'), /"path": "README.md"/);
    assert.match(await text('.call .approval'), /A read tool: runs without asking/);

    await page().locator('cw-tool-tester .call button.run').click();
    const run = await waitFor('tester/run');
    assert.deepEqual({ index: run.index, text: run.text }, { index: 0, text: BLOCK });
    await send({ type: 'tester/ran', requestId: run.requestId, run: await service.run(run.text, run.index) });
    await eventually(async () => assert.equal(await text('.run-status'), 'ok'));
    assert.match(await text('.run-content'), /hello from the readme/);
    assert.match(await text('.duration'), /^\d+ ms$/);
  });

  it('a write call says it needs approval; the run asks the user and a denial is the result', async () => {
    const write = '{"name": "write_file", "arguments": {"path": "x.txt", "content": "no"}}';
    await page().locator('cw-tool-tester textarea.pasted').fill(write);
    await page().locator('cw-tool-tester button.parse').click();
    const parse = await waitFor('tester/parse');
    await send({ type: 'tester/parsed', requestId: parse.requestId, parse: await service.parse(parse.text) });
    await eventually(async () => assert.match(await text('.call .approval'), /^Needs approval: A write tool/));
    await page().locator('cw-tool-tester .call button.run').click();
    const run = await waitFor('tester/run');
    gate = new ScriptedGate([{ decision: 'deny', reason: 'no' }]);
    service = new ToolTesterService({
      engine: async () => ({ engine: fixture.engine }),
      settings: () => settings,
      probeTarget: async () => ({ unavailable: 'unused' }),
      gate,
    });
    await send({ type: 'tester/ran', requestId: run.requestId, run: await service.run(run.text, run.index) });
    await eventually(async () => assert.equal(await text('.run-status'), 'denied'));
    assert.equal(gate.requests.length, 1);
    assert.throws(() => readFileSync(join(fixture.root, 'x.txt')), /ENOENT/);
  });

  it('text that holds no call says so and offers nothing to run', async () => {
    await page().locator('cw-tool-tester textarea.pasted').fill('just prose, no call');
    await page().locator('cw-tool-tester button.parse').click();
    const parse = await waitFor('tester/parse');
    await send({ type: 'tester/parsed', requestId: parse.requestId, parse: await service.parse(parse.text) });
    await eventually(async () => assert.match(await text('.parse-error'), /No tool call found/));
    assert.equal(await page().locator('cw-tool-tester button.run').count(), 0);
  });

  it('Test my server shows progress, then the verdict, the raw exchanges, and offers the matching setting', async () => {
    await page().locator('cw-tool-tester button.probe').click();
    await waitFor('tester/probe');
    assert.match(await text('.probe-running'), /Asking the model/);
    await send({
      type: 'tester/probe',
      status: 'done',
      probe: {
        model: 'tiny',
        endpoint: 'http://127.0.0.1:9/v1',
        verdict: 'text',
        suggestion: 'text',
        summary: 'Native tool calls do not work (the server rejects tools); the text protocol does. Use toolProtocol "text".',
        attempts: [
          {
            protocol: 'native',
            outcome: 'rejected',
            works: false,
            detail: 'The server refused the request with tools.',
            answer: '',
            exchanges: ['POST http://127.0.0.1:9/v1/chat/completions\n\n{}\n\n→ HTTP 400'],
          },
          {
            protocol: 'text',
            outcome: 'works',
            works: true,
            detail: 'The model called add_numbers.',
            answer: 'ok',
            exchanges: ['POST http://127.0.0.1:9/v1/chat/completions\n\n{}\n\n→ HTTP 200'],
          },
        ],
      },
    });
    await eventually(async () => assert.equal(await text('.verdict'), 'Only the text protocol works'));
    assert.equal(await page().locator('cw-tool-tester .probe-running').count(), 0);
    await page().locator('cw-tool-tester details.attempt[data-protocol=native] summary').click();
    assert.match(await text('details.attempt[data-protocol=native] pre.exchange'), /→ HTTP 400/);
    await page().locator('cw-tool-tester button.use-protocol').click();
    assert.deepEqual(await waitFor('tester/setProtocol'), { type: 'tester/setProtocol', protocol: 'text' });
  });

  it('a probe that cannot run shows why', async () => {
    await page().locator('cw-tool-tester button.probe').click();
    await waitFor('tester/probe');
    await send({ type: 'tester/probe', status: 'done', error: 'Set codewiki.baseUrl and codewiki.model first.' });
    await eventually(async () => assert.match(await text('.probe-error'), /Set codewiki.baseUrl/));
  });
});
