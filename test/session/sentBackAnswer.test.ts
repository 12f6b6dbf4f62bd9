import { strict as assert } from 'node:assert';
import type { AgentTurnMessage } from '../../src/core/history';
import { agentTurnAnswer } from '../../src/core/history/agentTurnAnswer';
import { conversationToMarkdown } from '../../src/core/history/markdownExport';
import { AgentModeFixture } from './agentModeBuilders';

const FILES = {
  'src/billing/invoice.ts':
    '/** Computes the total of an invoice, taxes included. */\nexport function invoiceTotal(lines: number[]): number {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
  'src/app.ts': "import { invoiceTotal } from './billing/invoice';\nexport const app = () => invoiceTotal([1]);\n",
};

/** An answer the agent sends back (a where-is answer without a file) through the session the extension runs: shown, kept, set apart. */
describe('session: an answer sent back is kept apart from the answer', () => {
  let fx: AgentModeFixture;
  beforeEach(async () => {
    fx = await new AgentModeFixture(FILES, true).start();
  });
  afterEach(() => fx.close());

  it('the webview is told where the new answer starts; history keeps both; the next question and exports get the answer', async () => {
    fx.server.enqueue({ text: 'The billing module computes it.' }, { text: 'src/billing/invoice.ts:2 computes it.' });
    await fx.session.sendAgent('Where is the invoice total computed?', {});
    const restart = fx.posted.find((m) => m.type === 'agentTurn/answerRestart');
    assert.deepEqual(restart && { ...restart, turnId: undefined }, {
      type: 'agentTurn/answerRestart',
      turnId: undefined,
      at: 'The billing module computes it.'.length,
    });
    const types = fx.posted.map((m) => m.type);
    assert.ok(
      types.includes('agentTurn/answerRestart') && types.indexOf('agentTurn/answerRestart') < types.lastIndexOf('agentTurn/chunk'),
      'the new answer streams after it',
    );

    const turn = (await fx.reopen())[1] as AgentTurnMessage;
    assert.equal(turn.answerStart, 'The billing module computes it.'.length);
    assert.deepEqual(agentTurnAnswer(turn), { answer: 'src/billing/invoice.ts:2 computes it.', sentBack: 'The billing module computes it.' });
    assert.match(turn.warnings!.join('\n'), /the answer named no file/);
    const exported = conversationToMarkdown({ id: 'c', title: 't', createdAt: '', updatedAt: '', messages: [turn] } as never);
    assert.match(exported, /\*\*Sent back\*\*\n\n> The billing module computes it\.\n\n\*\*Answer\*\*\n\nsrc\/billing\/invoice\.ts:2 computes it\./);

    fx.server.enqueue({ text: 'It adds the lines.' });
    await fx.session.sendAgent('What does it add?', {});
    const previous = fx.server.messagesOf(2).filter((m) => m.role === 'assistant' && !m.tool_calls?.length);
    assert.deepEqual(
      previous.map((m) => m.content),
      ['src/billing/invoice.ts:2 computes it.'],
      'the model sees its answer, not the one sent back',
    );
  });

  it('sent back twice, then no answer: everything before is folded, and the next question gets no empty message', async () => {
    // No file (asked for it), then nothing (asked once more), then nothing again (taken as the answer).
    fx.server.enqueue({ text: 'The billing module computes it.' }, { text: '' }, { text: '' });
    await fx.session.sendAgent('Where is the invoice total computed?', {});
    const turn = (await fx.reopen())[1] as AgentTurnMessage;
    assert.deepEqual(agentTurnAnswer(turn), { answer: '', sentBack: 'The billing module computes it.' });
    assert.equal(fx.posted.filter((m) => m.type === 'agentTurn/answerRestart').length, 1, 'the second restart had nothing new to fold');

    fx.server.enqueue({ text: 'Then look in src/billing.' });
    await fx.session.sendAgent('Try again?', {});
    const sent = fx.server.messagesOf(3);
    assert.deepEqual(
      sent.filter((m) => m.role === 'assistant' && !m.tool_calls?.length).map((m) => m.content),
      [],
      'no empty assistant message',
    );
  });
});
