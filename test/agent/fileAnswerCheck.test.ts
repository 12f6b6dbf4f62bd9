import { strict as assert } from 'node:assert';
import { asksWhere, namesAPlace } from '../../src/core/agent/fileAnswerCheck';
import { AgentFixture } from './agentHarness';

const FILES = {
  'crates/ignore/src/gitignore.rs':
    '/// Parses gitignore globs and matches paths against them.\npub struct Gitignore {}\nimpl Gitignore {\n    pub fn matched(&self, path: &str) -> bool { false }\n}\n',
  'README.md': '# demo\n',
};
const WITH_INDEX = { useCodeIndex: true };

/** A where-is question answered without naming any place gets one request for the file (scripted server, real ChatOpenAI, the code index on). */
describe('agent: a where-is answer names the file', () => {
  let fx: AgentFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it('an answer in words alone is sent back once; the answer with the file replaces it, a blank line after what was shown', async () => {
    fx = await new AgentFixture(FILES, [
      { text: 'The gitignore module provides a way to match globs.' },
      { text: 'crates/ignore/src/gitignore.rs:2 — Gitignore.' },
    ]).start();
    const result = await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX);
    const tokens = fx.eventsOf('token').map((e) => e.text);
    assert.equal(result.answer, 'crates/ignore/src/gitignore.rs:2 — Gitignore.');
    const second = fx.server.requests[1]!.body!.messages!;
    assert.equal(second.at(-2)!.content, 'The gitignore module provides a way to match globs.', 'the model sees what it said');
    assert.equal(second.at(-1)!.content, 'Name the file that answers the question, as path:line, in one sentence.');
    assert.equal(
      tokens.join(''),
      'The gitignore module provides a way to match globs.\n\ncrates/ignore/src/gitignore.rs:2 — Gitignore.',
      'what streamed stays readable',
    );
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /the answer named no file; CodeWiki asked the model which file it is/,
    );
  });

  it('asks once only, and never when the answer names a place, the question is not where-is, or the index showed nothing', async () => {
    fx = await new AgentFixture(FILES, [{ text: 'A module does it.' }, { text: 'Still a module.' }]).start();
    assert.equal((await fx.ask('Where are gitignore rules parsed?', WITH_INDEX)).answer, 'Still a module.');
    assert.equal(fx.server.requests.length, 2);
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: 'In gitignore.rs, the Gitignore struct.' }]).start();
    await fx.ask('Where are gitignore rules parsed?', WITH_INDEX);
    assert.equal(fx.server.requests.length, 1, 'a file name is a place');
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: 'Globs are patterns.' }]).start();
    await fx.ask('What is a glob?', WITH_INDEX);
    assert.equal(fx.server.requests.length, 1, 'not a where-is question');
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: 'Somewhere in a module.' }]).start();
    await fx.ask('Where are gitignore rules parsed?');
    assert.equal(fx.server.requests.length, 1, 'without the index the model was shown no candidates to name');
  });

  it('tells where-is questions and places apart', () => {
    for (const q of ['Where is X defined?', 'which file defines Y', 'Which function parses Z?', 'In which file is W?']) assert.ok(asksWhere(q), q);
    for (const q of ['What does X do?', 'Explain the flow', 'Is there a wherever?']) assert.ok(!asksWhere(q), q);
    for (const a of ['src/a.ts:3', 'in crates/ignore', 'It is in utils.py.', 'see `walk.rs`']) assert.ok(namesAPlace(a), a);
    for (const a of ['The gitignore module does it.', 'In the requests utils module, default_user_agent.']) assert.ok(!namesAPlace(a), a);
  });
});
