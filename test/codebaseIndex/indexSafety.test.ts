import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IndexFixture } from './indexHarness';

/** Security promise #7 holds for the index as for the file tools: what they may not read, it never indexes. */
describe('codebase index: what it never indexes', () => {
  let fx: IndexFixture;
  let outside: string | undefined;
  afterEach(async () => {
    await fx.close();
    if (outside) rmSync(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('secret files and ignored folders never reach the index, its searches or its saved file', async () => {
    fx = new IndexFixture({
      '.env': 'export function leakedSecretHelper() {}\nAPI_TOKEN=sk-live-1234567890\n',
      'certs/server.key': 'function privateKeyMaterial() {}\n',
      '.gitignore': 'generated/\n',
      'generated/out.ts': 'export function generatedThing(): void {}\n',
      'node_modules/lib/index.js': 'function dependencyCode() {}\n',
      'src/app.ts': 'export function realCode(): void {}\n',
    });
    const index = await fx.open();
    const status = await index.update();
    assert.equal(status.indexedFiles, 2, '.gitignore and src/app.ts');
    for (const name of ['leakedSecretHelper', 'privateKeyMaterial', 'generatedThing', 'dependencyCode']) {
      assert.deepEqual(
        (await index.findSymbol(name)).filter((m) => m.match === 'exact'),
        [],
        `${name} is not indexed`,
      );
    }
    assert.ok(!(await index.searchCode('API_TOKEN sk-live leaked secret')).some((h) => h.path === '.env'));
    const saved = readdirSync(fx.storeDir)
      .map((f) => readFileSync(join(fx.storeDir, f), 'utf8'))
      .join('\n');
    assert.ok(saved.includes('realCode'));
    for (const leak of ['sk-live-1234567890', 'leakedSecretHelper', 'privateKeyMaterial', 'generatedThing'])
      assert.ok(!saved.includes(leak), `${leak} is not in the saved index`);
  });

  it('a file changed later is checked against the same rules: an ignored or secret file is not let in by the watcher', async () => {
    fx = new IndexFixture({ '.gitignore': 'build/\n', 'src/app.ts': 'export const a = 1;\n' });
    const index = await fx.open();
    await index.update();
    fx.folder.write({
      'build/bundle.ts': 'export function bundledThing() {}\n',
      '.env.local': 'function envThing() {}\n',
      'src/new.ts': 'export function freshThing() {}\n',
    });
    await index.refreshFiles(['build/bundle.ts', '.env.local', 'src/new.ts'].map((p) => join(fx.root, p)));
    assert.equal((await index.findSymbol('freshThing'))[0]?.path, 'src/new.ts');
    assert.deepEqual(
      (await index.findSymbol('bundledThing')).filter((m) => m.match === 'exact'),
      [],
    );
    assert.deepEqual(
      (await index.findSymbol('envThing')).filter((m) => m.match === 'exact'),
      [],
    );
  });

  it('the user allow-list of secret files applies to the index too', async () => {
    fx = new IndexFixture({ '.env.example': 'EXAMPLE_DATABASE_URL=postgres://localhost/dev\n', 'src/a.ts': 'export const a = 1;\n' });
    const denied = await fx.open();
    await denied.update();
    assert.ok(!(await denied.searchCode('EXAMPLE_DATABASE_URL')).some((h) => h.path === '.env.example'), 'denied by default');
    const allowed = await fx.open({ allowSecrets: ['.env.example'] }, false);
    await allowed.update();
    assert.equal((await allowed.searchCode('EXAMPLE_DATABASE_URL'))[0]?.path, '.env.example');
  });

  it('symlinks that leave the workspace are not followed', async () => {
    outside = mkdtempSync(join(tmpdir(), 'codewiki-outside-'));
    writeFileSync(join(outside, 'secret.ts'), 'export function outsideSecret() {}\n');
    fx = new IndexFixture({ 'src/a.ts': 'export function insideCode() {}\n' });
    symlinkSync(join(outside, 'secret.ts'), join(fx.root, 'src/link.ts'));
    symlinkSync(outside, join(fx.root, 'linked-folder'));
    const index = await fx.open();
    await index.update();
    assert.equal((await index.findSymbol('insideCode'))[0]?.path, 'src/a.ts');
    assert.deepEqual(
      (await index.findSymbol('outsideSecret')).filter((m) => m.match === 'exact'),
      [],
    );
  });

  it('a 5 MB minified file, a binary and a file over the size cap are listed but never parsed', async () => {
    const minified = `function a(){return 1}${'var x=function(){return"y"};'.repeat(180_000)}function minifiedOnlyName(){}`;
    fx = new IndexFixture({
      'vendor/app.js': minified,
      'assets/logo.dat': Buffer.from([0, 1, 2, 3, 0, 255]),
      'data/table.ts': `${Array.from({ length: 60_000 }, (_, i) => `export const row${i} = ${i};`).join('\n')}\nexport function beyondTheCap() {}\n`,
      'src/main.ts': 'export function mainEntry() {}\n',
    });
    const index = await fx.open();
    const status = await index.update();
    assert.ok(minified.length > 5_000_000);
    assert.equal(status.indexedFiles, 3, 'the .dat extension is a known binary: not even walked');
    assert.deepEqual(
      (await index.findSymbol('minifiedOnlyName')).filter((m) => m.match === 'exact'),
      [],
    );
    assert.deepEqual(
      (await index.findSymbol('beyondTheCap')).filter((m) => m.match === 'exact'),
      [],
      'a 1.3 MB file is over the 1 MiB cap: listed, not read',
    );
    assert.equal((await index.findSymbol('mainEntry'))[0]?.path, 'src/main.ts');

    const sniffed = new IndexFixture({ 'data/blob.txt': Buffer.from([104, 105, 0, 0, 1]), 'bundle.js': `${'x=1;'.repeat(3_000)}\nfunction afterLongLine(){}` });
    try {
      const other = await sniffed.open();
      await other.update();
      assert.deepEqual(
        (await other.findSymbol('afterLongLine')).filter((m) => m.match === 'exact'),
        [],
        'a minified bundle under the size cap is skipped by its shape',
      );
      assert.equal(other.status().indexedFiles, 2, 'both are listed (by path), neither is parsed');
    } finally {
      await sniffed.close();
    }
  });
});
