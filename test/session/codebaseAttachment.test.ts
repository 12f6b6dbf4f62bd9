import { strict as assert } from 'node:assert';
import type { AgentTurnMessage, UserMessage } from '../../src/core/history';
import { AgentModeFixture } from './agentModeBuilders';

const FILES = {
  'src/billing/invoice.ts':
    '/** Computes the total of an invoice, taxes included. */\nexport function invoiceTotal(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
  'src/app.ts': "import { invoiceTotal } from './billing/invoice';\nexport const app = () => invoiceTotal([1]);\n",
};

/** `#codebase` and the definition cards, through the session the extension runs (scripted server, real history). */
describe('session: the code index in chat and agent turns', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture(FILES, true).start();
  });
  afterEach(() => fx.close());

  it('#codebase in chat mode sends the index matches with the question and records which files went', async () => {
    fx.server.enqueue({ text: 'In src/billing/invoice.ts.' });
    await fx.session.sendChat('Where is the invoice total computed?', { attachments: [{ kind: 'codebase' }] });
    const asked = String(fx.server.messagesOf(0).at(-1)!.content);
    assert.match(asked, /^CodeWiki's code index matched these to the question below/);
    assert.match(asked, /\n\nWhere is the invoice total computed\?$/);
    assert.match(asked, /src\/billing\/invoice\.ts:2: export function invoiceTotal\(lines: number\[\]\): number/);
    const messages = await fx.reopen();
    assert.equal((messages[0] as UserMessage).text, 'Where is the invoice total computed?', 'history keeps what the user typed');
  });

  it("in agent mode the card is saved with the turn, and #codebase replaces (never repeats) the agent's own candidates", async () => {
    fx.server.enqueue({ text: 'invoiceTotal is in src/billing/invoice.ts:2.' });
    await fx.session.sendAgent('Where is invoiceTotal defined?', { attachments: [{ kind: 'codebase' }] });
    const asked = String(fx.server.messagesOf(0).at(-1)!.content);
    assert.equal(asked.split("CodeWiki's code index matched").length, 2, 'the matches appear once');
    const cards = fx.posted.filter((m) => m.type === 'agentTurn/definitions');
    assert.equal(cards.length, 0, 'with #codebase the agent adds no candidates of its own, so no second lookup');
    const turn = (await fx.reopen())[1] as AgentTurnMessage;
    assert.deepEqual(turn.context, [{ kind: 'codebase', path: '', files: ['src/billing/invoice.ts', 'src/app.ts'] }]);
  });

  it('a where-is question in agent mode posts the definition card before the answer and keeps it in history', async () => {
    fx.server.enqueue({ text: 'In src/billing/invoice.ts:2.' });
    await fx.session.sendAgent('Where is invoiceTotal defined?', {});
    const types = fx.posted.map((m) => m.type);
    assert.ok(types.indexOf('agentTurn/definitions') < types.indexOf('agentTurn/chunk'), types.join(', '));
    const turn = (await fx.reopen())[1] as AgentTurnMessage;
    assert.deepEqual(turn.definitions, [
      {
        name: 'invoiceTotal',
        kind: 'function',
        path: 'src/billing/invoice.ts',
        line: 2,
        signature: 'export function invoiceTotal(lines: number[]): number',
        doc: 'Computes the total of an invoice, taxes included.',
      },
    ]);
    assert.equal(turn.indexContext?.files[0], 'src/billing/invoice.ts');
    assert.deepEqual(
      turn.toolCalls.map((call) => [call.tool, call.status]),
      [['search_code', 'ok']],
      'the search CodeWiki made for the model is in the turn, as a call',
    );
  });
});
