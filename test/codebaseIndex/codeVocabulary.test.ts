import { strict as assert } from 'node:assert';
import { codeStemsFor } from '../../src/core/codebaseIndex/search/codeVocabulary';
import { stemTerm } from '../../src/core/codebaseIndex/search/identifierWords';
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
    const text = TextIndex.empty();
    const cache = 'class TextCache {\n  object Get(string text) { return _cache.TryGetValue(text, out var found) ? found : Add(text); }\n}\n';
    text.set(1, await buildFileFacts({ path: 'src/TextCache.cs', hash: 'a', size: cache.length, mtimeMs: 0 }, cache));
    const memory = cache.replace(/Cache/g, 'Remembered').replace(/_cache/g, '_remembered');
    text.set(2, await buildFileFacts({ path: 'src/TextRemembered.cs', hash: 'b', size: memory.length, mtimeMs: 0 }, memory));
    const hits = text.query('Where are texts remembered?', 5);
    assert.deepEqual(
      hits.map((hit) => hit.id),
      [2, 1],
      JSON.stringify(hits),
    );
    assert.deepEqual(hits[1]!.terms.sort(), ['cach', 'text'], "the cache matched the code's word");
  });

  it('expands a plain word in any of its forms, and never a word the code says itself', () => {
    for (const word of ['remember', 'remembered', 'remembers']) assert.deepEqual(codeStemsFor(stemTerm(word)), ['cach', 'memo'], word);
    assert.deepEqual(codeStemsFor(stemTerm('ordered')), ['sort', 'sorter']);
    for (const word of ['cache', 'sort', 'template', 'hidden', 'duplicate']) assert.deepEqual(codeStemsFor(stemTerm(word)), [], word);
  });
});
