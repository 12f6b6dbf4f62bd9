import { strict as assert } from 'node:assert';
import { compileGlob } from '../../src/core/tools/file/globMatcher';

describe('glob matching', () => {
  const matches = (glob: string, path: string, fromRoot = path) => compileGlob(glob)(path, fromRoot);

  it('matches a slash-less pattern against the file name at any depth', () => {
    assert.ok(matches('*.ts', 'a.ts'));
    assert.ok(matches('*.ts', 'src/deep/a.ts'));
    assert.ok(!matches('*.ts', 'src/a.tsx'));
    assert.ok(matches('a?.md', 'docs/ab.md'));
  });

  it('supports **, braces, classes and comma-separated lists', () => {
    assert.ok(matches('src/**/*.ts', 'src/a.ts'));
    assert.ok(matches('src/**/*.ts', 'src/x/y/a.ts'));
    assert.ok(!matches('src/**/*.ts', 'lib/a.ts'));
    assert.ok(matches('*.{ts,tsx}', 'a.tsx'));
    assert.ok(matches('file[0-9].txt', 'file7.txt'));
    assert.ok(!matches('file[!0-9].txt', 'file7.txt'));
    assert.ok(matches('*.py, *.md', 'x/readme.md'));
    assert.ok(matches('**', 'anything/at/all'));
  });

  it('matches a pattern with a slash from the searched folder or from the root', () => {
    assert.ok(matches('lib/*.ts', 'lib/a.ts', 'pkg/lib/a.ts'));
    assert.ok(matches('pkg/lib/*.ts', 'lib/a.ts', 'pkg/lib/a.ts'));
    assert.ok(!matches('lib/*.ts', 'other/a.ts', 'pkg/other/a.ts'));
  });

  it('treats regex characters literally and rejects broken patterns clearly', () => {
    assert.ok(matches('a+b(1).ts', 'a+b(1).ts'));
    assert.ok(!matches('a.ts', 'abts'));
    assert.throws(() => compileGlob('[z-a].ts'), /Invalid glob pattern "\[z-a\]\.ts"/);
    assert.throws(() => compileGlob('src/[ab.ts'), /Invalid glob pattern "src\/\[ab\.ts"/);
    assert.throws(() => compileGlob('*.{ts,tsx'), /Invalid glob pattern/);
  });
});
