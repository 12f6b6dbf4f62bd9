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
  /**
   * requests' models.py in miniature: `__init__` says "client", "error" and "code" on many lines, `check` once says all
   * the question asks. Then gin's 180-line `getValue` in miniature, `lookup`, longer than a class may be before its
   * body counts, and `tree_path`, a decoy whose name holds "tree" and "path".
   */
  const MODELS_PY = [
    '"""What a session gets back."""',
    '',
    'class Response:',
    '    def __init__(self):',
    ...Array.from({ length: 12 }, (_, i) => `        self.code_${i} = 0  # the error code of the client`),
    '',
    '    def check(self):',
    '        if 400 <= self.code < 600:',
    '            raise ClientOrServerException("client or server error code")',
    '',
    '    def tree_path(self):',
    '        return self.parent',
    '',
    '    def lookup(self, route):',
    '        """Finds the handler for a route."""',
    '        step_0 = route',
    ...Array.from({ length: 170 }, (_, i) => `        step_${i + 1} = next_step(step_${i})`),
    '        return extract_wildcard_values(step_170, tree_of(route))',
  ].join('\n');

  it('shows the definition whose body holds the question’s words, not the longer one that repeats some of them', async () => {
    fx.folder.write({ 'models.py': MODELS_PY });
    const index = await fx.open();
    await index.update();
    const question = 'Where is the exception raised for a client or server error code?';
    const check = (await index.searchCode(question, { limit: 3 })).find((h) => h.path === 'models.py');
    assert.equal(check?.symbols[0]?.name, 'check', check?.symbols.map((s) => `${s.name}:${s.line}`).join(', '));
    const matches = await index.questionContext(question, { detail: 'compact' });
    assert.match(matches.text, /models\.py:\d+: def check\(self\)/, matches.text);
  });

  it('counts the body of a function longer than a class may be: it still does one job', async () => {
    fx.folder.write({ 'models.py': MODELS_PY });
    const index = await fx.open();
    await index.update();
    const routeQuestion = 'Where are the wildcard values of a route extracted from the tree path?';
    const lookup = (await index.searchCode(routeQuestion, { limit: 3 })).find((h) => h.path === 'models.py');
    assert.equal(lookup?.symbols[0]?.name, 'lookup', lookup?.symbols.map((s) => `${s.name}:${s.line}`).join(', '));
  });
});
