import { strict as assert } from 'node:assert';
import { citedPlaces, lineOfAnotherEntry, linePastEnd } from '../../src/core/agent/answerPlaces';
import { Workspace } from '../../src/core/workspace/workspace';
import { makeTempFolder } from '../tools/helpers/tempWorkspace';
import { asksWhere, listCopyWatch, namesAPlace } from '../../src/core/agent/fileAnswerCheck';
import { AgentFixture, toolText } from './agentHarness';

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
    const order = fx.events
      .filter((e) => e.type === 'token' || e.type === 'answer-restart')
      .map((e) => (e.type === 'token' ? e.text : '<restart>'))
      .join('');
    assert.equal(
      order,
      'The gitignore module provides a way to match globs.<restart>\n\ncrates/ignore/src/gitignore.rs:2 — Gitignore.',
      'the restart comes between the answer sent back and the one that replaces it',
    );
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /the answer named no file; CodeWiki asked the model which file it is/,
    );
  });

  it("a word only shaped like a path (a package, a module) is no place; a shown file's name or a folder of the workspace is", async () => {
    fx = await new AgentFixture(FILES, [
      { text: 'The `Gitignore` struct, in the `ignore.walk` module.' },
      { text: 'crates/ignore/src/gitignore.rs:2' },
    ]).start();
    assert.equal((await fx.ask('Where are gitignore rules parsed?', WITH_INDEX)).answer, 'crates/ignore/src/gitignore.rs:2');
    assert.equal(fx.server.requests.length, 2, 'asked for the file');
    await fx.close();

    for (const answer of [
      'In crates/ignore, the Gitignore struct.',
      'See `gitignore.rs`.',
      'In `/crates/ignore/src/gitignore.rs`:2.',
      'In crates\\ignore\\src\\gitignore.rs.',
      // A file name with a language's extension is a place the user can find, shown or not, with dots in its name too.
      'In `gitignore.test.rs`.',
    ]) {
      fx = await new AgentFixture(FILES, [{ text: answer }]).start();
      await fx.ask('Where are gitignore rules parsed?', WITH_INDEX);
      assert.equal(fx.server.requests.length, 1, answer);
      await fx.close();
    }
    fx = undefined;
  });

  it('a small model copying the matches is stopped at their second entry, and asked once for the file', async () => {
    // What the 1.5B default writes now and then, shown the matches (the list as sent, checked below).
    const copy = [
      'Best matches in the code index for the question, best first (path:line: what is there):',
      '1. crates/ignore/src/gitignore.rs — Parses gitignore globs and matches paths against them.',
      '   crates/ignore/src/gitignore.rs:2: pub struct Gitignore {}',
    ].join('\n');
    // In the pieces llama-server streams: `\n`, `2` and `.` come one by one.
    const chunks = [...copy.match(/\s*\S+\s*/g)!, '\n', '2', '.', ' README.md — demo', '\n   README.md:1: # demo'];
    fx = await new AgentFixture(FILES, [{ chunks }, { text: 'crates/ignore/src/gitignore.rs:2 defines Gitignore, which parses the rules.' }]).start();
    const result = await fx.ask('Where are the rules in a .gitignore file parsed?', { ...WITH_INDEX, adapter: { toolSet: 'compact' } });
    assert.match(
      toolText(fx.toolMessages(0)[0]!.content),
      /^1\. crates\/ignore\/src\/gitignore\.rs — Parses gitignore globs/m,
      'the scripted copy is the list as sent',
    );
    const second = fx.server.messagesOf(1);
    assert.equal(second.at(-2)!.content, copy, 'the copy ends before its second entry, for the model too');
    assert.equal(second.at(-1)!.content, 'Name the file that answers the question, as path:line, in one sentence.');
    assert.equal(result.answer, 'crates/ignore/src/gitignore.rs:2 defines Gitignore, which parses the rules.');
    const shown = fx
      .eventsOf('token')
      .map((e) => e.text)
      .join('');
    assert.equal(shown, `${copy}\n\ncrates/ignore/src/gitignore.rs:2 defines Gitignore, which parses the rules.`, 'nothing of the second entry was shown');
    assert.equal((fx.server.requests[0]!.body as { stop?: unknown }).stop, undefined, 'no stop sequence on the wire: any server takes the request');
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /the answer copied the index's matches; CodeWiki asked the model which file it is/,
    );
  });

  it('leaves a numbered answer from a large model, or from a small one to a question that is not where-is, as written', async () => {
    const numbered = '1. crates/ignore/src/gitignore.rs — Parses gitignore globs and matches paths against them.\n2. README.md — demo';
    fx = await new AgentFixture(FILES, [{ text: numbered }]).start();
    assert.equal((await fx.ask('Which files parse .gitignore rules?', WITH_INDEX)).answer, numbered, 'the full tool set: a large model');
    assert.equal(fx.server.requests.length, 1);
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: numbered }]).start();
    assert.equal((await fx.ask('Explain the gitignore parsing.', { ...WITH_INDEX, adapter: { toolSet: 'compact' } })).answer, numbered, 'not where-is');
    assert.equal(fx.server.requests.length, 1);
  });

  it('tells a copy of the matches from an answer that picks one of them', () => {
    const list = '1. src/a.ts — Parses things.\n   src/a.ts:3: export function parse()\n2. src/b.ts';
    assert.ok(copiesTheList('Best matches:\n1. src/a.ts — Parses things.\n   src/a.ts:3: export function parse()', list));
    assert.ok(copiesTheList('1. src/a.ts — Parses things.', list), 'the entry at the end of what was written so far');
    for (const answer of ['src/a.ts:3 parses things.', '1. src/a.ts:3 — parse()', 'See 1. src/a.ts — Parses things. Also'])
      assert.ok(!copiesTheList(answer, list), answer);
    assert.ok(!copiesTheList('1. src/a.tsx', '1. src/a.ts\n2. src/b.ts'), 'another file whose name starts the same');
    const copy = '1. src/a.ts — Parses things.\n   src/a.ts:3: x';
    assert.equal(cutListCopy(copy, list), undefined, 'no second entry yet');
    assert.deepEqual(cutListCopy(`${copy}\n2. src/b.ts`, list), { end: copy.length });
    assert.deepEqual(cutListCopy(`${copy}\n2`, list), { hold: 2 }, 'what may begin a second entry waits');
    assert.deepEqual(cutListCopy(`${copy}\n`, list), { hold: 1 });
    assert.equal(cutListCopy(`${copy}\n20 lines`, list), undefined, 'and shows once it is none');
    assert.equal(cutListCopy('src/a.ts:3 parses.\n2. other', list), undefined, 'no copy, no cut');
    assert.deepEqual(
      cutListCopy('Well: 1. src/a.ts — Parses things.\n1. src/a.ts — Parses things. \n2. src/b.ts', list),
      { end: 64 },
      'at a line start, blanks after it',
    );
    assert.deepEqual(cutListCopy(`${copy}\r\n2. src/b.ts`, list), { end: copy.length }, 'CRLF');
    assert.deepEqual(cutListCopy(`${copy}\r`, list), { hold: 1 });
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

  it("a line cited past the end of a listed file is sent back once, with the file's length; a line it has is not", async () => {
    fx = await new AgentFixture(FILES, [
      { text: 'The `Gitignore` struct, in the `crates/ignore/src/gitignore.rs` file at line 998.' },
      { text: 'crates/ignore/src/gitignore.rs:2 defines Gitignore.' },
    ]).start();
    const result = await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX);
    assert.equal(result.answer, 'crates/ignore/src/gitignore.rs:2 defines Gitignore.');
    assert.equal(
      fx.server.requests[1]!.body!.messages!.at(-1)!.content,
      'crates/ignore/src/gitignore.rs has 5 lines: there is no crates/ignore/src/gitignore.rs:998. Name the file that answers the question, as path:line, in one sentence.',
    );
    assert.match(
      fx
        .eventsOf('warning')
        .map((w) => w.message)
        .join('\n'),
      /the answer cited crates\/ignore\/src\/gitignore\.rs:998, and crates\/ignore\/src\/gitignore\.rs has 5 lines; CodeWiki asked the model which file it is/,
    );
    await fx.close();

    // Each check asks once: asked for the file, the answer may still cite a line the file does not have.
    fx = await new AgentFixture(FILES, [
      { text: 'The Gitignore struct does it.' },
      { text: 'crates/ignore/src/gitignore.rs:998' },
      { text: 'crates/ignore/src/gitignore.rs:2' },
    ]).start();
    assert.equal((await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX)).answer, 'crates/ignore/src/gitignore.rs:2');
    assert.deepEqual(
      fx.eventsOf('warning').map((w) => w.message.split(';')[0]),
      ['the answer named no file', 'the answer cited crates/ignore/src/gitignore.rs:998, and crates/ignore/src/gitignore.rs has 5 lines'],
    );
    await fx.close();

    fx = await new AgentFixture(FILES, [{ text: 'In crates/ignore/src/gitignore.rs, line 4: `matched`.' }]).start();
    await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX);
    assert.equal(fx.server.requests.length, 1, 'line 4 is there');
    await fx.close();

    // README.md is one line long, and prose: not among the matches of a where-is question.
    fx = await new AgentFixture(FILES, [{ text: 'In crates/ignore/src/gitignore.rs, or README.md:998.' }]).start();
    await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX);
    assert.doesNotMatch(toolText(fx.toolMessages(0)[0]!.content), /README/);
    assert.equal(fx.server.requests.length, 1, 'a file the index did not show is not read to check it');
  });

  it("a line past the end of a listed file is caught when the answer cites the end of the file's path", async () => {
    fx = await new AgentFixture(FILES, [{ text: 'It is `src/gitignore.rs:998`, the Gitignore struct.' }, { text: 'gitignore.rs:2' }]).start();
    assert.equal((await fx.ask('Where are the rules in a .gitignore file parsed?', WITH_INDEX)).answer, 'gitignore.rs:2');
    assert.equal(
      fx.server.requests[1]!.body!.messages!.at(-1)!.content,
      'crates/ignore/src/gitignore.rs has 5 lines: there is no crates/ignore/src/gitignore.rs:998. Name the file that answers the question, as path:line, in one sentence.',
    );
    assert.equal(fx.server.requests.length, 2, 'gitignore.rs:2 is a line the file has');
  });

  it('reads a cited end of a path as the one shown file it ends, and no file when two shown files end so', async () => {
    const folder = makeTempFolder('codewiki-line-check-');
    try {
      folder.write({ 'a/src/lib.rs': 'pub fn a() {}\n', 'b/src/lib.rs': 'pub fn b() {}\n', 'b/src/walk.rs': 'pub fn walk() {}\n' });
      const workspace = await Workspace.open(folder.path);
      const shown = { files: ['a/src/lib.rs', 'b/src/lib.rs', 'b/src/walk.rs'], list: '' };
      assert.deepEqual(await linePastEnd('It is walk.rs:40.', shown, workspace), { path: 'b/src/walk.rs', line: 40, lines: 1 });
      assert.deepEqual(await linePastEnd('It is a/src/lib.rs:40.', shown, workspace), { path: 'a/src/lib.rs', line: 40, lines: 1 });
      assert.equal(await linePastEnd('It is src/lib.rs:40.', shown, workspace), undefined, 'two shown files end with src/lib.rs');
    } finally {
      folder.cleanup();
    }
  });

  it("an answer that joins one entry's path to another entry's line, inside the file, is sent back once; a listed line is not", async () => {
    const files = {
      'src/walk.rs': `/// Walks directories in parallel.\npub struct WalkParallel {}\n${'// -\n'.repeat(20)}`,
      'src/visit.rs': `${'// -\n'.repeat(6)}/// Visits each entry of a parallel directory walk.\npub fn visit_parallel_walk() {}\n`,
    };
    fx = await new AgentFixture(files, [{ text: 'It is src/walk.rs:8.' }, { text: 'src/visit.rs:8' }]).start();
    assert.equal((await fx.ask('Where is the parallel directory walk?', WITH_INDEX)).answer, 'src/visit.rs:8');
    const list = toolText(fx.toolMessages(0)[0]!.content);
    assert.match(list, /^ +src\/visit\.rs:8\b/m, list);
    assert.doesNotMatch(list, /^ +src\/walk\.rs:8\b/m, 'walk.rs has a line 8, but the list does not show it');
    assert.equal(
      fx.server.requests[1]!.body!.messages!.at(-1)!.content,
      'The matches show line 8 in src/visit.rs, not in src/walk.rs. Name the file that answers the question, as path:line, in one sentence.',
    );
    assert.match(fx.eventsOf('warning')[0]!.message, /^the answer cited src\/walk\.rs:8, a line the matches show in src\/visit\.rs/);
    await fx.close();

    fx = await new AgentFixture(files, [{ text: 'It is src/visit.rs:8.' }]).start();
    await fx.ask('Where is the parallel directory walk?', WITH_INDEX);
    assert.equal(fx.server.requests.length, 1, 'a line the list shows for that file');
  });

  it('reads which entry a cited line comes from, by the lines the list shows', () => {
    const shown = {
      files: ['crates/pcre2/src/matcher.rs', 'crates/regex/src/matcher.rs'],
      list: [
        '1. crates/pcre2/src/matcher.rs — A builder for configuring the compilation of a PCRE2 regex.',
        '   crates/pcre2/src/matcher.rs:115: pub fn case_smart(&mut self, yes: bool) -> &mut RegexMatcherBuilder',
        '2. crates/regex/src/matcher.rs — A builder for constructing a `Matcher` using regular expressions.',
        '   crates/regex/src/matcher.rs:120: pub fn case_smart(&mut self, yes: bool) -> &mut RegexMatcherBuilder',
      ].join('\n'),
    };
    assert.deepEqual(lineOfAnotherEntry('It is crates/regex/src/matcher.rs:115: pub fn case_smart.', shown), {
      path: 'crates/regex/src/matcher.rs',
      line: 115,
      shownIn: 'crates/pcre2/src/matcher.rs',
    });
    assert.equal(lineOfAnotherEntry('It is crates/regex/src/matcher.rs:120.', shown), undefined, 'the line the list shows for it');
    assert.equal(lineOfAnotherEntry('It is crates/regex/src/matcher.rs:300.', shown), undefined, 'a line no entry shows');
    assert.equal(lineOfAnotherEntry('It is src/other.rs:115.', shown), undefined, 'a file not shown');
  });

  it("says where the list shows the line that was cited under another file's path", async () => {
    const files = {
      'src/walk.rs': '/// Walks directories in parallel.\npub struct WalkParallel {}\n',
      'src/visit.rs': `${'// -\n'.repeat(6)}/// Visits each entry of a parallel directory walk.\npub fn visit_parallel_walk() {}\n`,
    };
    fx = await new AgentFixture(files, [{ text: 'It is src/walk.rs:8.' }, { text: 'src/visit.rs:8' }]).start();
    await fx.ask('Where is the parallel directory walk?', WITH_INDEX);
    const list = toolText(fx.toolMessages(0)[0]!.content);
    assert.match(list, /^ +src\/visit\.rs:8\b/m, list);
    assert.doesNotMatch(list, /^ +src\/walk\.rs:8\b/m);
    assert.equal(
      fx.server.requests[1]!.body!.messages!.at(-1)!.content,
      'src/walk.rs has 2 lines: there is no src/walk.rs:8. The matches show line 8 in src/visit.rs. Name the file that answers the question, as path:line, in one sentence.',
    );
  });

  it('reads the places an answer cites: path:line, and a path with its line said in words', () => {
    assert.deepEqual(citedPlaces('It is in the `gin.go` file at line 998, and recovery.go:35: func Recovery().'), [
      { path: 'gin.go', line: 998 },
      { path: 'recovery.go', line: 35 },
    ]);
    assert.deepEqual(citedPlaces('found in crates/globset/src/lib.rs, line 461; see requests/models.py on line 12'), [
      { path: 'crates/globset/src/lib.rs', line: 461 },
      { path: 'requests/models.py', line: 12 },
    ]);
    assert.deepEqual(citedPlaces('In `./src/a.ts`:12, then b.py (Line 3).'), [
      { path: 'src/a.ts', line: 12 },
      { path: 'b.py', line: 3 },
    ]);
    assert.deepEqual(citedPlaces('See `vite.config.ts`:4 and /src/b.ts:3.'), [
      { path: 'vite.config.ts', line: 4 },
      { path: 'src/b.ts', line: 3 },
    ]);
    assert.deepEqual(citedPlaces('Version 1.2 has 3 lines, e.g. 4 of them; utils.py is long.'), []);
  });

  it('tells where-is questions and places apart', () => {
    for (const q of ['Where is X defined?', 'which file defines Y', 'Which function parses Z?', 'In which file is W?']) assert.ok(asksWhere(q), q);
    for (const q of ['What does X do?', 'Explain the flow', 'Is there a wherever?']) assert.ok(!asksWhere(q), q);
    for (const a of ['src/a.ts:3', 'in crates/ignore', 'It is in utils.py.', 'see `walk.rs`']) assert.ok(namesAPlace(a), a);
    for (const a of ['The gitignore module does it.', 'In the requests utils module, default_user_agent.', 'It parses the body (e.g., JSON, i.e. text).'])
      assert.ok(!namesAPlace(a), a);
  });
});

function copiesTheList(answer: string, list: string): boolean {
  return listCopyWatch(list)?.copied(answer) ?? false;
}

function cutListCopy(answer: string, list: string) {
  return listCopyWatch(list)?.cut(answer);
}
