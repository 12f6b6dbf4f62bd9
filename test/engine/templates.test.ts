import { strict as assert } from 'node:assert';
import { parseTemplate, TemplateSyntaxError } from '../../src/core/template/templateParser';
import { resolveTemplateString, resolveTemplateValue, UndefinedReferenceError } from '../../src/core/template/renderTemplate';

const vars = new Map<string, unknown>([
  ['name', 'world'],
  ['files', { items: [{ path: 'src/a.ts' }, { path: 'src/b.ts' }] }],
  ['list', ['a.ts', 'b.ts']],
  ['count', 3],
  ['odd', { 'key with space': 'yes' }],
  ['bundle', { kind: 'file-bundle', files: [{ path: 'x.ts', language: 'typescript', content: 'const x = 1;' }], missing: [] }],
]);

describe('templates', () => {
  it('interpolates references into text', () => {
    assert.equal(resolveTemplateString('Hello {name}, {count} files', vars), 'Hello world, 3 files');
  });

  it('follows property and index paths', () => {
    assert.equal(resolveTemplateString('{files.items[0].path}', vars), 'src/a.ts');
    assert.equal(resolveTemplateString('last: {files.items[-1].path}', vars), 'last: src/b.ts');
    assert.equal(resolveTemplateString('{odd["key with space"]}', vars), 'yes');
    assert.equal(resolveTemplateString('{list.length}', vars), 2);
  });

  it('passes the raw value when the template is exactly one reference', () => {
    assert.deepEqual(resolveTemplateString('{list}', vars), ['a.ts', 'b.ts']);
    assert.deepEqual(resolveTemplateString(' {files.items} ', vars), ' - path: src/a.ts\n- path: src/b.ts ');
    assert.equal(resolveTemplateString('{count}', vars), 3);
  });

  it('renders structured values readably inside text', () => {
    assert.equal(resolveTemplateString('Files:\n{list}', vars), 'Files:\n- a.ts\n- b.ts');
    const text = resolveTemplateString('Code:\n{bundle}', vars) as string;
    assert.match(text, /x\.ts/);
    assert.match(text, /const x = 1;/);
    assert.doesNotMatch(text, /\[object Object\]/);
  });

  it('resolves objects and lists of templates member by member', () => {
    assert.deepEqual(resolveTemplateValue({ a: '{name}', b: ['{count}', 'n={count}'], c: 5 }, vars), { a: 'world', b: [3, 'n=3'], c: 5 });
  });

  it('treats doubled braces as literal braces', () => {
    assert.equal(resolveTemplateString('{{"json": {count}}}', vars), '{"json": 3}');
    assert.equal(parseTemplate('{{name}}').segments.length, 1);
    assert.equal(resolveTemplateString('{{name}}', vars), '{name}');
  });

  it('rejects a lone brace and malformed references with the offending text', () => {
    assert.throws(() => parseTemplate('a { b'), TemplateSyntaxError);
    assert.throws(() => parseTemplate('{files..x}'), /is not a valid reference/);
    assert.throws(() => parseTemplate('{1abc}'), /must start with a variable name/);
    assert.throws(() => parseTemplate('{"a": 1}'), /write \{\{ and \}\} for literal braces/);
  });

  it('names an undefined variable', () => {
    assert.throws(
      () => resolveTemplateString('{nope}', vars),
      (e: unknown) => e instanceof UndefinedReferenceError && /"nope" is not defined/.test(e.message),
    );
  });

  it('never reaches prototypes through a path', () => {
    assert.equal(resolveTemplateString('{files.constructor}', vars), undefined);
    assert.equal(resolveTemplateString('{list.__proto__}', vars), undefined);
  });
});
