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

  it("a C# XML doc comment's doc line is its summary, with the names its references point at", async () => {
    const facts = await factsOf({
      path: 'LevelSwitch.cs',
      text: [
        'namespace Logs {', // 1
        '  /// <summary>', // 2
        '  /// Holds a <see cref="T:Logs.Level"/> that <paramref name="owner"/> can change, as <see cref="Run">the app runs</see>.', // 3
        '  /// </summary>', // 4
        '  /// <param name="owner">Who changes it.</param>', // 5
        '  public class LevelSwitch { }', // 6
        '  /// <param name="x">Only a parameter,', // 7
        '  /// no summary.</param>', // 8
        '  /// <returns>Nothing.</returns>', // 9
        '  public class Undocumented { }', // 10
        '  /// Returns an Array<item> of <c>Logs</c>.', // 11
        '  public class NoXml { }', // 12
        '}', // 13
      ].join('\n'),
      expect: [],
    });
    const doc = (name: string) => facts.symbols.find((s) => s.name === name)?.doc;
    assert.equal(doc('LevelSwitch'), 'Holds a Logs.Level that owner can change, as the app runs.');
    assert.equal(doc('Undocumented'), undefined, 'what a parameter or the result is says nothing of the definition');
    assert.equal(doc('NoXml'), 'Returns an Array<item> of <c>Logs</c>.', 'a comment without XML doc tags is read as it is');
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
    assert.equal(found.declaration ?? false, expected.declaration ?? false, `${fixture.path}: whether ${expected.name} is only declared`);
  }
  for (const name of fixture.absent ?? [])
    assert.ok(
      !symbols.some((s) => s.name === name),
      `${fixture.path}: ${name} is no definition; found ${symbols.map((s) => `${s.name}@${s.line}`).join(', ')}`,
    );
}
