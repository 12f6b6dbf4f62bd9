import { strict as assert } from 'node:assert';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { contentStems } from '../../src/core/codebaseIndex/search/identifierWords';
import type { SymbolDef } from '../../src/core/codebaseIndex/codeIndexTypes';
import { definitionCoverage, linesWithTerms, proximityScore } from '../../src/core/codebaseIndex/search/termProximity';
import { makeTempFolder } from '../tools/helpers/tempWorkspace';
import { IndexFixture } from './indexHarness';

/** Sixty route methods that all take handlers: the router says "handlers" everywhere, and the question's other words far apart. */
const routes = (prefix: string) =>
  Array.from({ length: 60 }, (_, i) => `func (g *Group) ${prefix}${i}(path string, handlers ...HandlerFunc) { g.handle(path, handlers) }`);

/**
 * gin's shape, made small: a router that names middleware at its top, a catch-all route in the middle and a
 * `panic(…)` call further down, and the recovery middleware that says it all in one doc line.
 */
const ROUTER_AND_RECOVERY = {
  ...Object.fromEntries(
    ['cache', 'render', 'json', 'xml', 'form', 'auth', 'logger', 'mode'].map((name) => [
      `${name}.go`,
      `package web\n// ${name} support for the handlers.\nfunc ${name}Handler(c *Context) {}\n`,
    ]),
  ),
  'routergroup.go': [
    'package web',
    '// Group is a set of routes that share a path prefix and middleware handlers.',
    'type Group struct { Handlers []HandlerFunc }',
    '// Use adds middleware handlers to the group.',
    'func (g *Group) Use(middleware ...HandlerFunc) { g.Handlers = append(g.Handlers, middleware...) }',
    ...routes('Route'),
    '// CatchAll routes every path no other route matches to the handlers.',
    'func (g *Group) CatchAll(handlers ...HandlerFunc) {}',
    'func (g *Group) combine(handlers []HandlerFunc) []HandlerFunc {',
    '  if len(g.Handlers)+len(handlers) > 100 { panic("too many") }',
    '  return append(g.Handlers, handlers...)',
    '}',
    ...routes('Other'),
    '// RespondWith sets what a method answers.',
    'func (g *Group) RespondWith(method string) {}',
  ].join('\n'),
  'recovery.go': [
    'package web',
    'import "net/http"',
    '// Recovery returns a middleware that recovers from any panics and writes a 500.',
    'func Recovery() HandlerFunc {',
    '  return func(c *Context) {',
    '    defer func() { if err := recover(); err != nil { c.AbortWithStatus(http.StatusInternalServerError) } }()',
    '    c.Next()',
    '  }',
    '}',
  ].join('\n'),
  'context.go': 'package web\n// Context carries a request through its handlers.\ntype Context struct{}\nfunc (c *Context) Next() {}\n',
};
const QUESTION = 'Where is the middleware that catches panics in handlers and responds with a 500?';

describe('code index: the proximity of the question’s words', () => {
  it('finds the lines that hold query stems, in identifiers too (recoverPanics: recov, panic), with their line numbers', () => {
    const text = ['package web', '// Recovery catches panics.', 'func recoverPanics() {}', 'x := 1', 'handlePanic(err)'].join('\n');
    const lines = linesWithTerms(text, new Set(['catch', 'panic', 'recov']));
    assert.deepEqual(
      lines.map(({ line, terms }) => ({ line, terms: [...terms].sort() })),
      [
        { line: 2, terms: ['catch', 'panic'] },
        { line: 3, terms: ['panic', 'recov'] },
        { line: 5, terms: ['panic'] },
      ],
    );
  });

  it('scores the best few neighbouring lines by the rarity of the different words they hold', () => {
    const idf = new Map([
      ['middlewar', 1],
      ['panic', 2],
      ['500', 3],
    ]);
    const spread = [
      { line: 1, text: '', terms: ['middlewar'] },
      { line: 40, text: '', terms: ['panic'] },
      { line: 90, text: '', terms: ['500'] },
    ];
    const together = [
      { line: 10, text: '', terms: ['middlewar', 'panic'] },
      { line: 12, text: '', terms: ['500', 'panic'] },
    ];
    assert.equal(proximityScore(spread, idf), 0, 'apart: no window holds two of them');
    assert.equal(proximityScore(together, idf), 6, 'within three lines, all three once each');
    assert.equal(proximityScore([], idf), 0);
  });

  it('a whole name counts as the question spelled it, as well as its parts', () => {
    const lines = linesWithTerms('// nothing here\nfunc recoverPanics() {}\n', new Set(['recoverpan', 'panic']));
    assert.deepEqual(
      lines.map(({ line, terms }) => ({ line, terms: [...terms].sort() })),
      [{ line: 2, terms: ['panic', 'recoverpan'] }],
    );
  });

  it('finds the words whose stem ends in a letter they do not have: entity (entiti), buildQuery (queri), keys (kei), storing (store), capabilities (capabl)', () => {
    const text = ['class Entity {}', 'function buildQuery() {}', 'return Object.keys(map);', 'let storing = true;', 'capabilities: []', 'nothing here'].join(
      '\n',
    );
    const lines = linesWithTerms(text, new Set(contentStems('Where are the entity, the query, the keys, the store and the capability?')));
    assert.deepEqual(
      lines.map(({ line, terms }) => ({ line, terms })),
      [
        { line: 1, terms: ['entiti'] },
        { line: 2, terms: ['queri'] },
        { line: 3, terms: ['kei'] },
        { line: 4, terms: ['store'] },
        { line: 5, terms: ['capabl'] },
      ],
    );
  });

  it('a part that starts at a case change after lower-case letters is found (threadReader: reader; readBuffer: buffer, behind a match of adb across its parts), a stem inside a lower-case run is not a part (thread, spreadsheet: read)', () => {
    const text = ['thread := 1', 'threadReader := 2', 'readBuffer := 3', 'spreadsheet := 4'].join('\n');
    const found = (wanted: string[]) => linesWithTerms(text, new Set(wanted)).map(({ line, terms }) => ({ line, terms: [...terms].sort() }));
    assert.deepEqual(found(['reader', 'adb', 'buffer']), [
      { line: 2, terms: ['reader'] },
      { line: 3, terms: ['buffer'] },
    ]);
    assert.deepEqual(found(['read']), [{ line: 3, terms: ['read'] }]);
  });

  it('an empty stem (a lone `$` in the question) matches nothing, and the scan ends', () => {
    const text = ['const $ = jquery;', '$(selector).hide();', 'export function selectorOf() {}'].join('\n');
    const lines = linesWithTerms(text, new Set(['', 'selector']));
    assert.deepEqual(
      lines.map(({ line, terms }) => ({ line, terms })),
      [
        { line: 2, terms: ['selector'] },
        { line: 3, terms: ['selector'] },
      ],
    );
  });

  describe('a definition that gathers the question’s words', () => {
    const symbol = (name: string, line: number, endLine: number, kind: SymbolDef['kind'] = 'function', doc?: string): SymbolDef => ({
      name,
      kind,
      line,
      endLine,
      signature: `function ${name}()`,
      ...(doc ? { doc } : {}),
    });
    const idf = new Map([
      ['parent', 1],
      ['child', 1],
      ['insert', 2],
      ['order', 1],
    ]);
    const wanted = new Set(idf.keys());
    // Words 10 lines apart: no window of three lines holds two of them.
    const lines = [
      { line: 12, text: '', terms: ['parent'] },
      { line: 22, text: '', terms: ['child'] },
      { line: 32, text: '', terms: ['insert'] },
      { line: 202, text: '', terms: ['parent', 'child'] },
    ];

    it('counts each word once, by idf, from its name, its doc line and its lines; the best definition counts', () => {
      assert.equal(proximityScore(lines.slice(0, 3), idf), 0, 'too far apart for a window');
      const sort = symbol('sortInOrder', 10, 40); // order (name) + parent, child, insert (body)
      const other = symbol('other', 200, 210, 'function', 'Keeps a parent.'); // parent (doc), parent and child (body)
      assert.equal(definitionCoverage([sort, other], lines, wanted, idf), 5);
      assert.equal(definitionCoverage([other], lines, wanted, idf), 2, 'parent counts once');
    });

    it('a function’s body counts up to 500 lines, a class’s up to 150; past that, the name and doc line only', () => {
      const longFunction = symbol('walk', 1, 300);
      const wrapper = symbol('wrap', 1, 600); // a module in a function (a UMD wrapper): its words are the file's
      const longClass = symbol('Walker', 1, 300, 'class', 'Walks parents in order.');
      assert.equal(definitionCoverage([longFunction], lines, wanted, idf), 4, 'parent, child, insert');
      assert.equal(definitionCoverage([longClass], lines, wanted, idf), 2, 'parent and order, from its doc line: not child or insert, from its body');
      assert.equal(definitionCoverage([wrapper], lines, wanted, idf), 0);
    });

    it('a constant is its value: a long table counts its body like a function (ripgrep’s 370-line DEFAULT_TYPES)', () => {
      const table = { ...symbol('DEFAULT_ORDER', 1, 300, 'constant'), signature: 'pub const DEFAULT_ORDER: &[(&str, &str)] = &[' };
      const variable = { ...symbol('defaultOrder', 1, 300, 'variable'), signature: 'var defaultOrder = [' };
      const wrapper = { ...symbol('ORDER_LIB', 1, 300, 'constant'), signature: 'var ORDER_LIB = (function () {' };
      assert.equal(definitionCoverage([table], lines, wanted, idf), 5, 'order (name) + parent, child, insert (its entries)');
      assert.equal(definitionCoverage([variable], lines, wanted, idf), 0, 'a variable this long is a module, its name one word');
      assert.equal(definitionCoverage([wrapper], lines, wanted, idf), 0, 'a constant whose value is code is a module too');
    });
  });

  describe('in the ranking (real files)', () => {
    let fx: IndexFixture;
    beforeEach(() => (fx = new IndexFixture(ROUTER_AND_RECOVERY)));
    afterEach(() => fx.close());

    it('puts the file that says the question in one place above the one that says its words far apart', async () => {
      const index = await fx.open();
      await index.update();
      const ranked = async (useProximity: boolean) => (await index.searchCode(QUESTION, { limit: 3, useProximity })).map((hit) => hit.path);
      assert.equal((await ranked(false))[0], 'routergroup.go', 'without proximity the router wins: the fixture is a real test');
      assert.equal((await ranked(true))[0], 'recovery.go');
      const matches = await index.questionContext(QUESTION);
      assert.match(matches.text, /^1\. recovery\.go/m, 'the agent’s first request lists it first');
    });

    it('ranks the function that does what the question says, its words spread over its body, above the names it shares', async () => {
      // typeorm's shape: "where are entities put in order so parent rows get inserted before the child rows?" is
      // answered by a sorter whose comments say it line by line, and asked in the words of the entity classes' names.
      const filler = (n: number, word: string) => Array.from({ length: n }, (_, i) => `  const ${word}${i} = load(${i});`);
      const sorting = new IndexFixture({
        ...Object.fromEntries(
          ['cache', 'query', 'driver', 'logger', 'schema', 'naming'].map((n) => [
            `${n}.ts`,
            `/** ${n} support for rows. */\nexport function ${n}Rows(rows: unknown[]) { return rows; }\n`,
          ]),
        ),
        'entity.ts': [
          '/** Marks a class. */',
          'export class ParentEntity { id = 0; }',
          ...filler(5, 'e'),
          '/** Marks a class as a child. */',
          'export class ChildEntity { id = 0; }',
        ].join('\n'),
        'sorter.ts': [
          '/** Puts the entities of a save in order. */',
          // Named without "sort", which "order" also searches (codeVocabulary.ts): the words must not win alone.
          'export function arrangeSubjects(subjects: Subject[]): Subject[] {',
          '  const arranged: Subject[] = [];',
          ...filler(8, 'a'),
          '  // a subject referenced by another is its parent',
          ...filler(8, 'b'),
          '  // the child comes after',
          ...filler(8, 'c'),
          '  // so its rows are inserted later',
          ...filler(8, 'd'),
          '  return arranged; // in order',
          '}',
        ].join('\n'),
      });
      try {
        const index = await sorting.open();
        await index.update();
        const question = 'Where are entities put in order so parent rows get inserted before the child rows?';
        const ranked = async (useProximity: boolean) => (await index.searchCode(question, { limit: 2, useProximity })).map((hit) => hit.path);
        assert.deepEqual(await ranked(false), ['entity.ts', 'sorter.ts'], 'by their words alone the entity names win: the fixture is a real test');
        // In sorter.ts only the doc line's window holds several of the question's words (put, entities, order), and
        // with the window alone entity.ts stays first; the function holds all of those and parent, child, rows, inserted.
        assert.deepEqual(await ranked(true), ['sorter.ts', 'entity.ts']);
        // A Latin-1 byte (no UTF-8) changes the text's length once decoded, not whether it is the indexed version.
        const sorter = readFileSync(join(sorting.root, 'sorter.ts'));
        sorting.folder.write({ 'sorter.ts': Buffer.concat([sorter, Buffer.from('\n// r\xe9sum\xe9 of a save\n', 'latin1')]) });
        await index.update();
        assert.deepEqual(await ranked(true), ['sorter.ts', 'entity.ts']);
      } finally {
        sorting.close();
      }
    });

    it('reads the file as it is now: an edit that spreads the words apart undoes the gain, before the index sees it', async () => {
      const index = await fx.open();
      await index.update();
      assert.equal((await index.searchCode(QUESTION, { limit: 3 }))[0]?.path, 'recovery.go');
      fx.folder.write({
        'recovery.go': [
          'package web',
          '// Recovery returns a middleware.',
          ...Array.from({ length: 20 }, (_, i) => `var unused${i} = ${i}`),
          '// It recovers from any panics.',
          ...Array.from({ length: 20 }, (_, i) => `var spare${i} = ${i}`),
          '// And writes a 500.',
          'func Recovery() HandlerFunc { return nil }',
        ].join('\n'),
      });
      // No update: the words and names the index keeps are the old ones; only the text read for proximity changed.
      assert.equal((await index.searchCode(QUESTION, { limit: 3 }))[0]?.path, 'routergroup.go');
    });

    it('shows no line for a contraction\'s or possessive\'s letters: `t := 0` holds no word of "isn\'t" or "the retry\'s"', async () => {
      const loops = new IndexFixture({
        'retry.go': [
          'package web',
          'func retry(n int) {',
          '  t := 0',
          '  s := n',
          '  for t < s { t++ }',
          '  // the backoff doubles after each retry',
          '}',
        ].join('\n'),
      });
      try {
        const index = await loops.open();
        await index.update();
        const [hit] = await index.searchCode("Where isn't the retry's backoff doubled?", { limit: 1 });
        assert.equal(hit?.path, 'retry.go');
        assert.deepEqual(
          hit.lines.map((line) => line.text.trim()),
          ['// the backoff doubles after each retry'],
        );
      } finally {
        await loops.close();
      }
    });

    it('never reads a secret through a symlink to it in the workspace', async () => {
      const index = await fx.open();
      await index.update();
      fx.folder.write({ '.env': ROUTER_AND_RECOVERY['recovery.go'] });
      rmSync(join(fx.root, 'recovery.go'));
      symlinkSync(join(fx.root, '.env'), join(fx.root, 'recovery.go'));
      const hits = await index.searchCode(QUESTION, { limit: 3 });
      assert.equal(hits[0]?.path, 'routergroup.go');
      assert.deepEqual(hits.find((hit) => hit.path === 'recovery.go')?.lines ?? [], []);
    });

    it('never reads a file through a symlink that leads out of the workspace', async () => {
      const outside = makeTempFolder('codewiki-proximity-outside-');
      try {
        outside.write({ 'recovery.go': ROUTER_AND_RECOVERY['recovery.go'] });
        const index = await fx.open();
        await index.update();
        rmSync(join(fx.root, 'recovery.go'));
        symlinkSync(join(outside.path, 'recovery.go'), join(fx.root, 'recovery.go'));
        const hits = await index.searchCode(QUESTION, { limit: 3 });
        assert.equal(hits[0]?.path, 'routergroup.go', 'the linked text gave no proximity');
        const recovery = hits.find((hit) => hit.path === 'recovery.go');
        assert.deepEqual(recovery?.lines ?? [], [], 'and no line of it is shown');
      } finally {
        outside.cleanup();
      }
    });
  });
});
