import { strict as assert } from 'node:assert';
import { withoutUnfinishedSentence } from '../../src/core/wiki/prose/unfinishedSentence';

/** Prose stopped at its token cap (wiki-page.yaml, max_tokens) keeps its finished sentences only. */
describe('prose cut at its token cap', () => {
  it('drops the sentence the cap cut, and only that', () => {
    assert.equal(withoutUnfinishedSentence('It builds queries. It allows developers to specify the'), 'It builds queries.');
    assert.equal(withoutUnfinishedSentence('First paragraph.\n\nA second that never'), 'First paragraph.');
    assert.equal(withoutUnfinishedSentence('Intro.\n\n- `a` does one thing.\n- `b` does'), 'Intro.\n\n- `a` does one thing.');
  });

  it('leaves finished prose, code and a lone fragment as they are', () => {
    for (const whole of ['All done.', 'Ends with code `x`', 'A list:\n\n- one\n- two.', 'Only a fragment'])
      assert.equal(withoutUnfinishedSentence(whole), whole);
  });
});
