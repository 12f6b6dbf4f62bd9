import { strict as assert } from 'node:assert';
import { PassThrough } from 'node:stream';
import { AnswerOutput } from '../../src/cli/commands/answerOutput';

/** What `codewiki ask` writes to stdout: to a terminal as it streams, to a pipe the answer once. */
describe('codewiki ask: the answer on stdout', () => {
  const capture = () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d: Buffer) => (text += d.toString()));
    return { out, text: () => text };
  };

  it("to a pipe: nothing until the end, then the run's answer alone (not what was sent back), once", () => {
    const { out, text } = capture();
    const answer = new AnswerOutput(out, false);
    answer.text('The module does it.');
    assert.equal(text(), '', 'held back');
    answer.restart();
    answer.text('\n\nsrc/a.ts:2 does it.');
    answer.end('src/a.ts:2 does it.');
    answer.end('src/a.ts:2 does it.');
    assert.equal(text(), 'src/a.ts:2 does it.\n');
  });

  it('to a pipe, cancelled: what arrived since the last restart is kept', () => {
    const { out, text } = capture();
    const answer = new AnswerOutput(out, false);
    answer.text('First.');
    answer.restart();
    answer.text('\n\nSecond, cut');
    answer.end();
    assert.equal(text(), 'Second, cut\n');
  });

  it('to a terminal: everything streams, and a warning line starts on a line of its own', () => {
    const { out, text } = capture();
    const answer = new AnswerOutput(out, true);
    answer.text('The module does it.');
    answer.breakLine();
    answer.restart();
    answer.text('\n\nsrc/a.ts:2');
    answer.end('src/a.ts:2');
    assert.equal(text(), 'The module does it.\n\n\nsrc/a.ts:2\n');
  });
});
