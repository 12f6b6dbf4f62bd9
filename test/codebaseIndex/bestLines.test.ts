import { strict as assert } from 'node:assert';
import { IndexFixture } from './indexHarness';

/**
 * requests' shape, made small: every module says "session" and calls `.get(…)`; the redirect module also says, once,
 * where a POST answered with a 302 becomes a GET. Five other modules use "turn" too, so it says less than "302" or "POST".
 */
const SESSIONS = {
  ...Object.fromEntries(
    ['adapters', 'api', 'auth', 'cookies', 'hooks', 'models', 'utils', 'structures'].map((name, i) => [
      `${name}.py`,
      `"""The ${name} of a session."""\n\ndef ${name}_value(session):\n    return session.get("${name}")${i < 5 ? '  # turn it into text' : ''}\n`,
    ]),
  ),
  'redirects.py': [
    '"""Following redirects for a session."""',
    '',
    'def next_url(session, response):',
    '    url = session.get(response.url)  # turn the session back',
    '    return url',
    '',
    'def rebuild_method(method, status):',
    '    """The method to use after a redirect."""',
    '    if status == 302 and method == "POST":',
    '        method = "GET"',
    '    return method',
  ].join('\n'),
};
const QUESTION = 'Where does the session turn a POST into a GET after a 302?';

describe('code index: the lines shown for a ranked file', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(SESSIONS)));
  afterEach(() => fx.close());

  it('puts the line with the question’s rare words first, above an earlier one with more of its common words', async () => {
    const index = await fx.open();
    await index.update();
    const hit = (await index.searchCode(QUESTION, { limit: 3 })).find((h) => h.path === 'redirects.py');
    assert.ok(hit, 'redirects.py is ranked');
    // By count, line 4 holds three of the question's words (session, get, turn) and line 9 two (302, post); by what
    // the words say, line 9 is the answer.
    assert.equal(hit.lines[0]?.line, 9, hit.lines.map((l) => `${l.line}: ${l.text}`).join('\n'));
    assert.equal(hit.lines[0]?.within, 'rebuild_method');
    assert.ok(
      hit.lines.some((l) => l.line === 4),
      'the weaker line is still shown, after it',
    );
    const matches = await index.questionContext(QUESTION, { detail: 'compact' });
    assert.match(
      matches.text,
      /redirects\.py:9 \(in rebuild_method\): if status == 302 and method == "POST":/,
      'the one line a small model gets is the best one',
    );
  });

  it('a question made of question words alone ("handle") still shows the definitions it names', async () => {
    fx.folder.write({ 'handlers.py': 'def handle(event):\n    return event\n\ndef handle_all(events):\n    return [handle(e) for e in events]\n' });
    const index = await fx.open();
    await index.update();
    const hit = (await index.searchCode('handle', { limit: 3 })).find((h) => h.path === 'handlers.py');
    assert.deepEqual(hit?.symbols.map((s) => s.name).sort(), ['handle', 'handle_all']);
  });
});
