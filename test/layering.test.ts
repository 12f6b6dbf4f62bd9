import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The core must run in the CLI and tests, so it may never reach for the `vscode` module. */
describe('layering', () => {
  it('src/core never imports vscode', () => {
    const root = join(__dirname, '..', 'src', 'core');
    const offenders = sourceFiles(root).filter((file) =>
      /(from\s+['"]vscode['"]|require\(\s*['"]vscode['"]\s*\)|import\(\s*['"]vscode['"]\s*\))/.test(readFileSync(file, 'utf8')),
    );
    assert.ok(sourceFiles(root).length > 10, 'the core has source files to check');
    assert.deepEqual(
      offenders.map((f) => relative(root, f)),
      [],
    );
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}
