import { strict as assert } from 'node:assert';
import { buildFileFacts } from '../../src/core/codebaseIndex/parsing/fileFacts';
import { GRAMMAR_FIXTURES, OUTLINE_FIXTURES, type GrammarFixture } from './grammarFixtures';

/** Every grammar the index ships finds the definitions of a real file at the right lines, with kinds, containers and doc lines. */
describe('codebase index: definitions per language', () => {
  for (const fixture of GRAMMAR_FIXTURES) {
    it(`${fixture.path}: tree-sitter finds ${fixture.expect.map((e) => e.name).join(', ')}`, async () => {
      const facts = await factsOf(fixture);
      assert.equal(facts.parsedBy, 'tree-sitter');
      assertDefinitions(fixture, facts.symbols);
      if (fixture.imports) assert.deepEqual([...facts.imports].sort(), [...fixture.imports].sort());
    });
  }

  for (const fixture of OUTLINE_FIXTURES) {
    it(`${fixture.path}: without a grammar, the outline finds ${fixture.expect.map((e) => e.name).join(', ')}`, async () => {
      const facts = await factsOf(fixture);
      assert.equal(facts.parsedBy, 'outline');
      assertDefinitions(fixture, facts.symbols);
    });
  }

  it('a signature is the declaration up to its body, on one line', async () => {
    const facts = await factsOf({
      path: 'a.ts',
      text: 'export async function load(\n  path: string,\n  options: { strict: boolean },\n): Promise<void> {\n  return;\n}\n',
      expect: [],
    });
    assert.equal(facts.symbols[0]!.signature, 'export async function load( path: string, options: { strict: boolean }, ): Promise<void>');
    assert.equal(facts.symbols[0]!.endLine, 6);
  });

  it('a doc line is read as text: Javadoc links and code, HTML tags off; a generic stays', async () => {
    const java = await factsOf({
      path: 'JsonReader.java',
      text: [
        '/**',
        ' * <p>Reads a JSON (<a href="https://www.ietf.org/rfc/rfc8259.txt">RFC 8259</a>) value for {@link Gson} with {@link #fromJson(String, Class)}, see {@link #peek() peeking}, as {@code T}.',
        ' */',
        'public class JsonReader {}',
      ].join('\n'),
      expect: [],
    });
    assert.equal(java.symbols[0]!.doc, 'Reads a JSON (RFC 8259) value for Gson with fromJson(String, Class), see peeking, as T.');
    const ts = await factsOf({
      path: 'a.ts',
      text: '/** Returns a Map<string, number> or Either<A, B> or Array<Code>; see {@link countWords | the counter}. */\nexport function counts() {}\n',
      expect: [],
    });
    assert.equal(ts.symbols[0]!.doc, 'Returns a Map<string, number> or Either<A, B> or Array<Code>; see the counter.');
  });

  it("a licence header a blank line above is not a definition's doc", async () => {
    const facts = await factsOf({ path: 'a.py', text: '# Copyright 2024 Someone\n# Licensed under MIT\n\ndef run():\n    pass\n', expect: [] });
    assert.equal(facts.symbols[0]!.doc, undefined);
  });
});

function factsOf(fixture: GrammarFixture) {
  return buildFileFacts({ path: fixture.path, hash: 'h', size: fixture.text.length, mtimeMs: 0 }, fixture.text);
}

function assertDefinitions(fixture: GrammarFixture, symbols: Awaited<ReturnType<typeof factsOf>>['symbols']): void {
  for (const expected of fixture.expect) {
    const found = symbols.find((s) => s.name === expected.name && s.line === expected.line);
    assert.ok(found, `${fixture.path}: no ${expected.name} at line ${expected.line}; found ${symbols.map((s) => `${s.name}@${s.line}`).join(', ')}`);
    assert.equal(found.kind, expected.kind, `${fixture.path}: kind of ${expected.name}`);
    if (expected.container) assert.equal(found.container, expected.container, `${fixture.path}: container of ${expected.name}`);
    if (expected.doc) assert.equal(found.doc, expected.doc, `${fixture.path}: doc of ${expected.name}`);
  }
}
