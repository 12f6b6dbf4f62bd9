import { strict as assert } from 'node:assert';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FileFacts } from '../../src/core/codebaseIndex/codeIndexTypes';
import { CodeFilesByName, documentedStem, namesakeStem, testedStem } from '../../src/core/codebaseIndex/search/namesakeCode';
import { languageFromPath } from '../../src/core/tools/file/languages';
import { IndexFixture } from './indexHarness';

/**
 * A test whose names say what a question asks, and the code it tests, which says it in other words (serilog's
 * `PropertyValueConverterTests.cs` and `PropertyValueConverter.cs`). Another code file matches a word or two.
 */
const CONVERTER_AND_ITS_TEST = {
  'src/Capturing/ValueConverter.cs': [
    'namespace Demo.Capturing;',
    'class ValueConverter {',
    '  public object Convert(object value) {',
    '    var text = value as string;',
    '    if (text != null && text.Length > _limit) return text.Substring(0, _limit - 1) + "\\u2026";',
    '    return value;',
    '  }',
    '}',
  ].join('\n'),
  'test/Capturing/ValueConverterTests.cs': [
    'namespace Demo.Tests;',
    'class ValueConverterTests {',
    '  /// Long strings are cut short with an ellipsis when they pass the maximum length.',
    '  public void LongStringsAreCutShortWithAnEllipsis() { }',
    '  public void MaximumLengthCutsLongStringsShort() { }',
    '}',
  ].join('\n'),
  'src/Formatting/TextFormatter.cs': [
    'namespace Demo.Formatting;',
    '/// Writes strings to the output.',
    'class TextFormatter {',
    '  public void WriteStrings(string[] strings) { }',
    '}',
  ].join('\n'),
};

const QUESTION = 'Where are long strings cut short with an ellipsis at the maximum length?';

describe('a matching test points at the code it tests', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(CONVERTER_AND_ITS_TEST)));
  afterEach(() => fx.close());

  it('ranks the tested file first, though only its test says the words of the question', async () => {
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'src/Capturing/ValueConverter.cs', paths.join(', '));
    assert.ok(paths.indexOf('test/Capturing/ValueConverterTests.cs') > 0, 'the test is still listed, below its code');
    const context = await index.questionContext(QUESTION);
    assert.match(context.text, /^1\. src\/Capturing\/ValueConverter\.cs/m, 'the model is shown the tested code first');
  });

  it('follows renames: a code file renamed away from its test name is no longer pointed at', async () => {
    const index = await fx.open();
    await index.update();
    assert.equal((await index.searchCode(QUESTION))[0]?.path, 'src/Capturing/ValueConverter.cs');
    renameSync(join(fx.root, 'src/Capturing/ValueConverter.cs'), join(fx.root, 'src/Capturing/Truncation.cs'));
    await index.refreshFiles(['src/Capturing/ValueConverter.cs', 'src/Capturing/Truncation.cs'].map((path) => join(fx.root, path)));
    const paths = (await index.searchCode(QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'test/Capturing/ValueConverterTests.cs', `no test names Truncation.cs: ${paths.join(', ')}`);
    assert.ok(paths.indexOf('src/Capturing/Truncation.cs') > 0);
  });

  it('lends nothing when the name points at several files', async () => {
    fx.folder.write({ 'src/Other/ValueConverter.cs': 'namespace Demo.Other;\nclass ValueConverter { }\n' });
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'test/Capturing/ValueConverterTests.cs', `two ValueConverter.cs: neither is the one tested: ${paths.join(', ')}`);
  });

  it('lends nothing when the question asks for tests, or names a definition of the test', async () => {
    fx.folder.write({
      'test/Formatting/TextFormatterTests.cs':
        'class TextFormatterTests {\n  /// Long strings are written whole.\n  public void LongStringsAreWrittenWhole() { }\n}\n',
    });
    const index = await fx.open();
    await index.update();
    const tests = (await index.searchCode('Which tests check that long strings are cut short with an ellipsis?')).map((hit) => hit.path);
    assert.deepEqual(tests.slice(0, 2), ['test/Capturing/ValueConverterTests.cs', 'test/Formatting/TextFormatterTests.cs'], tests.join(', '));
    const named = (await index.searchCode('Where is LongStringsAreCutShortWithAnEllipsis?')).map((hit) => hit.path);
    assert.equal(named[0], 'test/Capturing/ValueConverterTests.cs', named.join(', '));
  });

  it('keeps to the folder searched, and to BM25 alone when names are turned off', async () => {
    const index = await fx.open();
    await index.update();
    const inTests = (await index.searchCode(QUESTION, { pathPrefix: 'test' })).map((hit) => hit.path);
    assert.deepEqual(inTests, ['test/Capturing/ValueConverterTests.cs']);
    const plain = (await index.searchCode(QUESTION, { useExactNames: false })).map((hit) => hit.path);
    assert.equal(plain[0], 'test/Capturing/ValueConverterTests.cs', plain.join(', '));
  });

  it('a second file of the same name added after a search ends the lending', async () => {
    const index = await fx.open();
    await index.update();
    assert.equal((await index.searchCode(QUESTION))[0]?.path, 'src/Capturing/ValueConverter.cs');
    fx.folder.write({ 'src/Other/ValueConverter.cs': 'namespace Demo.Other;\nclass ValueConverter { }\n' });
    await index.refreshFiles([join(fx.root, 'src/Other/ValueConverter.cs')]);
    assert.equal((await index.searchCode(QUESTION))[0]?.path, 'test/Capturing/ValueConverterTests.cs');
  });

  it('a C test points at the source file, not the header that declares it', async () => {
    const c = new IndexFixture({
      'src/idna.h': '/* Converts a domain name. */\nint idna_toascii(const char* s);\n',
      'src/idna.c': '#include "idna.h"\nint idna_toascii(const char* s) {\n  return convert(s);\n}\n',
      'test/idna_test.c': '/* Internationalized host names become punycode. */\nvoid internationalized_hosts_become_punycode(void) {}\n',
    });
    try {
      const index = await c.open();
      await index.update();
      const paths = (await index.searchCode('Where do internationalized host names become punycode?')).map((hit) => hit.path);
      assert.equal(paths[0], 'src/idna.c', paths.join(', '));
    } finally {
      await c.close();
    }
  });

  it('lends nothing to a file of another language', async () => {
    rmSync(join(fx.root, 'test/Capturing/ValueConverterTests.cs'));
    fx.folder.write({
      'test/Capturing/ValueConverterTests.py': [
        'class ValueConverterTests:',
        '    def test_long_strings_are_cut_short_with_an_ellipsis(self):',
        '        """Long strings are cut short with an ellipsis when they pass the maximum length."""',
        '    def test_maximum_length_cuts_long_strings_short(self):',
        '        pass',
      ].join('\n'),
    });
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'test/Capturing/ValueConverterTests.py', `a Python test tests no C# file: ${paths.join(', ')}`);
  });
});

/**
 * A page of the API docs that says what a question asks in its words, and the code it documents, which says it in
 * names (libuv's `docs/src/timer.rst` and `src/timer.c`). Another code file matches a word or two.
 */
const TIMERS_AND_THEIR_PAGE = {
  'docs/src/timer.rst': [
    'Timer handles',
    '=============',
    '',
    'Timer handles are used to schedule callbacks to be called in the future.',
    'When the loop runs, every timer whose deadline has passed has its callback called, earliest deadline first.',
  ].join('\n'),
  'src/timer.c': [
    '#include "heap.h"',
    'void uv__run_timers(uv_loop_t* loop) {',
    '  struct heap_node* node;',
    '  while ((node = heap_min(timer_heap(loop))) != NULL) {',
    '    if (handle->timeout > loop->time) break;',
    '    handle->timer_cb(handle);',
    '  }',
    '}',
  ].join('\n'),
  'src/loop.c': '/* Runs the loop. */\nvoid uv_run(uv_loop_t* loop) {\n  uv__run_timers(loop);\n}\n',
};

const TIMER_QUESTION = 'Where are timers whose deadline has passed found and their callbacks called?';

describe('a matching doc page points at the code it documents', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(TIMERS_AND_THEIR_PAGE)));
  afterEach(() => fx.close());

  it('ranks the documented file first, the page below it', async () => {
    const index = await fx.open();
    await index.update();
    const plain = (await index.searchCode(TIMER_QUESTION, { useExactNames: false })).map((hit) => hit.path);
    assert.equal(plain[0], 'docs/src/timer.rst', `without the lending the page is first: ${plain.join(', ')}`);
    const paths = (await index.searchCode(TIMER_QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'src/timer.c', paths.join(', '));
    assert.ok(paths.indexOf('docs/src/timer.rst') > 0, 'the page is still listed, below its code');
  });

  it('lends nothing when the question asks for the docs: the page first, the code where it ranks on its own', async () => {
    const index = await fx.open();
    await index.update();
    const question = 'Which documentation page says when timers whose deadline has passed are called?';
    const hits = await index.searchCode(question);
    assert.equal(hits[0]?.path, 'docs/src/timer.rst', hits.map((hit) => hit.path).join(', '));
    // Nothing but the lending tells the two searches apart here: the question spells no name the files define.
    const unlent = await index.searchCode(question, { useExactNames: false });
    const score = (found: typeof hits) => found.find((hit) => hit.path === 'src/timer.c')?.score;
    assert.equal(score(hits), score(unlent));
  });

  it('still points at the code beside a data file of the same name', async () => {
    fx.folder.write({ 'config/timer.json': '{ "timers": { "deadline": 10 } }\n' });
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(TIMER_QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'src/timer.c', `timer.json is no code a page documents: ${paths.join(', ')}`);
  });

  it('lends nothing from a page about the whole project, though a file shares its name', async () => {
    fx.folder.write({
      'docs/src/index.rst': 'Timers whose deadline has passed are found and their callbacks called.\n',
      'src/index.c': 'int main(void) { return 0; }\n',
    });
    rmSync(join(fx.root, 'docs/src/timer.rst'));
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(TIMER_QUESTION)).map((hit) => hit.path);
    assert.notEqual(paths[0], 'src/index.c', paths.join(', '));
    assert.ok(paths.indexOf('src/index.c') < 0 || paths.indexOf('src/index.c') > paths.indexOf('docs/src/index.rst'), paths.join(', '));
  });
});

/**
 * A C header whose doc comment says what a question asks, and the source with the body, which has no comment (libuv's
 * `src/idna.h` and `src/idna.c`). Another source file matches a word or two.
 */
const HEADER_AND_ITS_SOURCE = {
  'src/idna.h': [
    '#ifndef UV_SRC_IDNA_H_',
    '#define UV_SRC_IDNA_H_',
    '/* Convert a UTF-8 domain name to IDNA 2008 / Punycode. A return value >= 0 is the ASCII host name length. */',
    'long uv__idna_toascii(const char* s, const char* se, char* d, char* de);',
    '#endif',
  ].join('\n'),
  'src/idna.c': [
    '#include "idna.h"',
    'static int uv__wtf8_decode1(const char** input) {',
    '  return **input;',
    '}',
    'long uv__idna_toascii(const char* s, const char* se, char* d, char* de) {',
    '  return uv__wtf8_decode1(&s);',
    '}',
  ].join('\n'),
  'src/getaddrinfo.c': [
    '#include "idna.h"',
    'int uv_getaddrinfo(const char* hostname) {',
    '  char hostname_ascii[256];',
    '  return uv__idna_toascii(hostname, hostname + 1, hostname_ascii, hostname_ascii + 256);',
    '}',
  ].join('\n'),
};

const PUNYCODE_QUESTION = 'Where are Unicode domain names converted to ASCII Punycode?';

describe('a matching C header points at the source that has its bodies', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(HEADER_AND_ITS_SOURCE)));
  afterEach(() => fx.close());

  it('ranks the source first, though only the header says the words of the question', async () => {
    const index = await fx.open();
    await index.update();
    const plain = (await index.searchCode(PUNYCODE_QUESTION, { useExactNames: false })).map((hit) => hit.path);
    assert.equal(plain[0], 'src/idna.h', `without the lending the header is first: ${plain.join(', ')}`);
    const paths = (await index.searchCode(PUNYCODE_QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'src/idna.c', paths.join(', '));
    assert.ok(paths.indexOf('src/idna.h') > 0, 'the header is still listed, below its source');
    const context = await index.questionContext(PUNYCODE_QUESTION);
    assert.match(context.text, /^1\. src\/idna\.c/m, 'the model is shown the source first');
  });

  it('lends nothing when two sources share its name', async () => {
    fx.folder.write({ 'src/win/idna.c': 'long uv__idna_toascii_win(void) { return 0; }\n' });
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode(PUNYCODE_QUESTION)).map((hit) => hit.path);
    assert.equal(paths[0], 'src/idna.h', `two idna.c: neither is the one declared: ${paths.join(', ')}`);
  });

  it('lends nothing when the question asks for the header file or the declaration', async () => {
    const index = await fx.open();
    await index.update();
    for (const question of [
      'Which header file says that Unicode domain names are converted to ASCII Punycode?',
      'Where is the function that converts Unicode domain names to ASCII Punycode declared?',
    ]) {
      const paths = (await index.searchCode(question)).map((hit) => hit.path);
      assert.equal(paths[0], 'src/idna.h', `${question}: ${paths.join(', ')}`);
    }
  });
});

describe('the file a doc page names', () => {
  it("is the page's own name, for a page about one file", () => {
    assert.equal(documentedStem('docs/src/timer.rst'), 'timer');
    assert.equal(documentedStem('docs/api/Router.md'), 'Router');
    assert.equal(documentedStem('src/timer.c'), undefined);
    for (const page of ['README.md', 'docs/index.rst', 'CHANGELOG.md', 'docs/api.md', 'LICENSE.txt', 'docs/guide.adoc', 'docs/doc.md']) {
      assert.equal(documentedStem(page), undefined, page);
    }
  });
});

describe('the code file a page, a test or a header is named after', () => {
  const files = (paths: string[]) => {
    const facts = new Map(paths.map((path, id) => [id, { path, language: languageFromPath(path), skipped: undefined } as unknown as FileFacts]));
    const byName = new CodeFilesByName(paths.map((path, id) => [path, id]));
    return (path: string) => {
      const found = byName.namesakeOf({ path, language: languageFromPath(path) }, (id) => facts.get(id));
      return found === undefined ? undefined : paths[found.id];
    };
  };

  it('is the one file of code of that name, its source over its header, whatever case the page spells it in', () => {
    const namesake = files(['src/timer.c', 'include/timer.h', 'src/Router.ts', 'config/timer.json', 'config/ci.yml', 'docs/ci.md']);
    assert.equal(namesake('docs/src/timer.rst'), 'src/timer.c');
    assert.equal(namesake('docs/router.md'), 'src/Router.ts');
    assert.equal(namesake('test/timer_test.c'), 'src/timer.c');
  });

  it("is a test's source over its header whatever the header's extension is spelled in", () => {
    const namesake = files(['src/Timer.c', 'include/Timer.H']);
    assert.equal(namesake('test/Timer_test.c'), 'src/Timer.c');
  });

  it("is a header's source in C or C++, never another header, and none for a header whose name several sources share", () => {
    const namesake = files([
      'src/idna.c',
      'src/idna.h',
      'include/idna.h',
      'lib/tree.cc',
      'src/unix/internal.c',
      'src/win/internal.c',
      'src/idna.py',
      'include/uv.h',
      'include/lone.hpp',
      'src/Codec.cpp',
    ]);
    assert.equal(namesake('include/idna.h'), 'src/idna.c');
    assert.equal(namesake('src/idna.h'), 'src/idna.c');
    assert.equal(namesake('include/tree.hpp'), 'lib/tree.cc');
    assert.equal(namesake('src/internal.h'), undefined, 'internal.c in two folders');
    assert.equal(namesake('include/uv.h'), undefined, 'no uv.c: not the header itself');
    assert.equal(namesake('src/lone.h'), undefined, 'only another header of its name');
    assert.equal(namesake('include/Codec.HPP'), 'src/Codec.cpp', 'an extension in capitals');
    assert.equal(namesake('test/idna.h'), undefined, "a test's header declares no source");
    assert.equal(namesakeStem('src/idna.c'), undefined, 'a source names nothing');
    const byName = new CodeFilesByName([['src/idna.c', 0]]);
    const facts = { path: 'src/idna.c', language: 'c', skipped: undefined } as unknown as FileFacts;
    const roles = ['include/idna.h', 'test/idna_test.c', 'docs/idna.md'].map(
      (path) => byName.namesakeOf({ path, language: languageFromPath(path) }, () => facts)?.role,
    );
    assert.deepEqual(roles, ['declares', 'tests', 'documents']);
  });

  it('is none for a fixture in a test folder, a page whose namesake is data, or a page about the project', () => {
    const namesake = files(['src/timer.c', 'config/loop.json', '.github/workflows/ci.yml', 'setup.py', 'src/index.ts']);
    for (const page of ['test/fixtures/timer.md', 'docs/loop.md', 'docs/ci.md', 'docs/setup.md', 'docs/index.md']) {
      assert.equal(namesake(page), undefined, page);
    }
  });
});

describe('the file a test file names', () => {
  it('reads the test conventions of each language', () => {
    const cases: Array<[string, string | undefined]> = [
      ['test/Serilog.Tests/Capturing/PropertyValueConverterTests.cs', 'PropertyValueConverter'],
      ['gson/src/test/java/com/google/gson/stream/JsonWriterTest.java', 'JsonWriter'],
      ['tests/test_utils.py', 'utils'],
      ['context_test.go', 'context'],
      ['src/router/routeTree.test.ts', 'routeTree'],
      ['packages/core/router.spec.ts', 'router'],
      ['spec/cookie_spec.rb', 'cookie'],
      ['tests/CookieJarTest.php', 'CookieJar'],
      ['src/Newtonsoft.Json.Tests/JsonWriterTests.cs', 'JsonWriter'],
      ['pandas/tests/test_common.py', 'common'],
      ['internal/helpers_test.go', 'helpers'],
    ];
    for (const [path, stem] of cases) assert.equal(testedStem(path), stem, path);
  });

  it('names none for code, or a test file named after no file', () => {
    const paths = [
      'src/Capturing/PropertyValueConverter.cs',
      'src/testing/Contest.ts',
      'tests/integration.rs',
      'test/app.router.js',
      'tests/Tests.cs',
      'test/Latest.java',
      'test/Contest.ts',
      'tests/attest.go',
      'test/manifest.rs',
      'src/test/java/Test.java',
      'tests/conftest.py',
      'test/test_helper.rb',
      'spec/spec_helper.rb',
      'src/test/java/com/acme/BaseTest.java',
    ];
    for (const path of paths) assert.equal(testedStem(path), undefined, path);
  });
});
