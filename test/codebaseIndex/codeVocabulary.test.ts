import { strict as assert } from 'node:assert';
import { codeStemsFor } from '../../src/core/codebaseIndex/search/codeVocabulary';
import { TextIndex } from '../../src/core/codebaseIndex/search/textIndex';
import { buildFileFacts } from '../../src/core/codebaseIndex/parsing/fileFacts';
import { IndexFixture } from './indexHarness';

/**
 * serilog's shape: the parser and the renderer are named after templates; the cache that keeps them says "template"
 * once, in its doc, and "cache", a word the question does not use.
 */
const TEMPLATE_CODE = {
  'src/Parsing/TemplateParser.cs': [
    'namespace Demo.Parsing;',
    '/// Parses template text into template tokens.',
    'class TemplateParser {',
    '  public Template Parse(string templateText) { return new Template(TemplateTokens(templateText)); }',
    '}',
  ].join('\n'),
  'src/Rendering/TemplateRenderer.cs': [
    'namespace Demo.Rendering;',
    '/// Renders a template and its template properties.',
    'class TemplateRenderer {',
    '  public void Render(Template template, TextWriter output) { template.Render(output); }',
    '}',
  ].join('\n'),
  'src/Pipeline/TextCache.cs': [
    'namespace Demo.Pipeline;',
    '/// Keeps a bounded number of templates by their text.',
    'class TextCache {',
    '  public object Get(string text) { return _cache.TryGetValue(text, out var found) ? found : Add(text); }',
    '}',
  ].join('\n'),
};

/** A text index of these files, each parsed as the index parses it, numbered from 1 in order. */
async function textIndexOf(files: Array<[path: string, text: string]>): Promise<TextIndex> {
  const index = TextIndex.empty();
  for (const [i, [path, text]] of files.entries()) index.set(i + 1, await buildFileFacts({ path, hash: String(i), size: text.length, mtimeMs: 0 }, text));
  return index;
}

describe("a question's plain words also search the code's words for them", () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(TEMPLATE_CODE)));
  afterEach(() => fx.close());

  it('"remembered" puts the cache, which never says it, above the code named after templates', async () => {
    const index = await fx.open();
    await index.update();
    const paths = (await index.searchCode('Where are templates remembered?')).map((hit) => hit.path);
    assert.equal(paths[0], 'src/Pipeline/TextCache.cs', paths.join(', '));
    const context = await index.questionContext('Where are templates remembered?');
    assert.match(context.text, /^1\. src\/Pipeline\/TextCache\.cs/m, context.text);
  });

  it('in the text index the code\'s word weighs less than the question\'s own: a file that says "remembered" leads', async () => {
    const cache = 'class TextCache {\n  object Get(string text) { return _cache.TryGetValue(text, out var found) ? found : Add(text); }\n}\n';
    const memory = cache.replace(/Cache/g, 'Remembered').replace(/_cache/g, '_remembered');
    const text = await textIndexOf([
      ['src/TextCache.cs', cache],
      ['src/TextRemembered.cs', memory],
    ]);
    const hits = text.query('Where are texts remembered?', 5);
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [2, 1],
      JSON.stringify(hits),
    );
    assert.deepEqual(hits[1]!.terms.sort(), ['cach', 'text'], "the cache matched the code's word");
  });

  it('two code words for one plain word count as one match and add their best, not their sum', async () => {
    // Two files alike but for the words in their code: `_memo` and `_cache` in one, `_remembered` in the other.
    const store = (fields: string) => `class TextStore {\n  object Get(string text) { return ${fields}; }\n}\n`;
    const text = await textIndexOf([
      ['src/a/TextStore.cs', store('_memo.TryGetValue(text, out var found) ? found : _cache.Add(text)')],
      ['src/b/TextStore.cs', store('_remembered.TryGetValue(text, out var found) ? found : Add(text)')],
    ]);
    const hits = text.query('Where are texts remembered?', 5);
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [2, 1],
      JSON.stringify(hits),
    );
    assert.deepEqual(hits[1]!.terms.sort(), ['cach', 'memo', 'text']);
  });

  it('expands a plain word in each form the table writes out, and never a word the code says itself', () => {
    for (const word of ['remember', 'remembered', 'remembers']) assert.deepEqual(codeStemsFor(word), ['cach', 'memo'], word);
    assert.deepEqual(codeStemsFor('ordered'), ['sort', 'sorter']);
    assert.deepEqual(codeStemsFor('doubled'), ['backoff', 'exponenti']);
    // Stems would join these to the plain words above; as written they are the code's own words.
    for (const word of ['cache', 'sort', 'double', 'recent', 'hidden', 'duplicate']) assert.deepEqual(codeStemsFor(word), [], word);
  });

  it("the lines a file shows weigh the code's word less than the question's own words", async () => {
    fx.folder.write({
      'src/Pipeline/TextCache.cs': [
        'namespace Demo.Pipeline;',
        '/// Keeps a bounded number of templates by their text.',
        'class TextCache {',
        // A line with the code's word alone, then one with the question's word alone, equally rare: the second is best.
        '  public object Get(string text) { return _cache.TryGetValue(text, out var found) ? found : Add(text); }',
        '  // remembered until the bound is reached',
        '  void Trim() { }',
        '}',
      ].join('\n'),
    });
    const index = await fx.open();
    await index.update();
    const [best] = await index.searchCode('Where are templates remembered?', { limit: 1 });
    assert.equal(best?.path, 'src/Pipeline/TextCache.cs');
    assert.match(best!.lines[0]?.text ?? '', /remembered/, JSON.stringify(best!.lines));
  });

  it('a question longer than a search counts keeps every word of its own before any code word', () => {
    // 29 made-up words, "remembered" and "file": 31 of its own, as many as a search counts.
    const own = Array.from({ length: 29 }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`).join(' ');
    const text = TextIndex.empty();
    assert.deepEqual([...text.codeWordsSearched('Where are templates remembered?').keys()], ['cach', 'memo'], 'a short question searches them');
    assert.deepEqual(
      [...text.codeWordsSearched(`Which file has ${own} remembered?`).keys()],
      [],
      'its own words fill the search: the code words go, not "file"',
    );
  });
});
