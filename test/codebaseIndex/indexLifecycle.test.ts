import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base64 } from '../../src/core/codebaseIndex/store/base64Arrays';
import { IndexFixture } from './indexHarness';

const FILES = {
  'src/frequency.ts': '/** Counts words. */\nexport function countWords(words: string[]): Map<string, number> {\n  return new Map();\n}\n',
  'src/tokenize.ts': "import { countWords } from './frequency';\nexport function tokenize(text: string): string[] {\n  return text.split(' ');\n}\n",
  'README.md': '# Word tools\n\nCounting and tokenizing.\n',
};

/** The index on real files: built, saved outside the workspace, read back, and kept current file by file. */
describe('codebase index: build, save, re-open, incremental updates', () => {
  let fx: IndexFixture;
  beforeEach(() => (fx = new IndexFixture(FILES)));
  afterEach(() => fx.close());

  it('builds, finds a definition by name, and saves the index in the store folder, not the workspace', async () => {
    const index = await fx.open();
    const status = await index.update();
    assert.equal(status.state, 'ready');
    assert.equal(status.indexedFiles, 3);
    assert.equal(status.parsedFiles, 3);
    const [found] = await index.findSymbol('countWords');
    assert.deepEqual(
      { path: found!.path, line: found!.line, kind: found!.kind, doc: found!.doc },
      { path: 'src/frequency.ts', line: 2, kind: 'function', doc: 'Counts words.' },
    );
    assert.equal(readdirSync(fx.storeDir).filter((f) => f.endsWith('.json')).length, 1, 'one saved index in the store');
    assert.deepEqual(readdirSync(fx.root).sort(), ['README.md', 'src'], 'nothing written into the workspace');
  });

  it('a re-opened index reads its saved facts back and parses nothing that did not change', async () => {
    await (await fx.open()).update();
    const reopened = await fx.open();
    const status = await reopened.update();
    assert.equal(status.parsedFiles, 0);
    assert.equal(status.indexedFiles, 3);
    assert.equal((await reopened.findSymbol('tokenize'))[0]!.path, 'src/tokenize.ts');
  });

  it('an edit, an addition, a rename and a delete are each re-indexed alone', async () => {
    const index = await fx.open();
    await index.update();
    writeFileSync(join(fx.root, 'src/frequency.ts'), 'export function topWords(n: number): string[] {\n  return [];\n}\n');
    writeFileSync(join(fx.root, 'src/format.ts'), 'export function formatReport(): string {\n  return "";\n}\n');
    renameSync(join(fx.root, 'src/tokenize.ts'), join(fx.root, 'src/words.ts'));
    rmSync(join(fx.root, 'README.md'));
    await index.refreshFiles(['src/frequency.ts', 'src/format.ts', 'src/tokenize.ts', 'src/words.ts', 'README.md'].map((p) => join(fx.root, p)));
    assert.deepEqual(await index.findSymbol('countWords').then((m) => m.filter((x) => x.match === 'exact')), [], 'the old definition is gone');
    assert.equal((await index.findSymbol('topWords'))[0]!.path, 'src/frequency.ts');
    assert.equal((await index.findSymbol('formatReport'))[0]!.path, 'src/format.ts');
    assert.equal((await index.findSymbol('tokenize'))[0]!.path, 'src/words.ts', 'the renamed file is found under its new name');
    assert.equal(index.status().indexedFiles, 3, 'frequency, format, words: the README and the old name are gone');
    const hits = await index.searchCode('word tools counting');
    assert.ok(!hits.some((h) => h.path === 'README.md'), 'a deleted file is no longer ranked');
  });

  it('readied for questions while idle, it ranks as before; a file renamed into a test after that ranks as a test', async () => {
    fx.folder.write({
      'src/histogram.ts': '/** Counts words into a histogram. */\nexport function wordHistogram(words: string[]): number[] {\n  return [];\n}\n',
    });
    const index = await fx.open();
    await index.update();
    const question = 'Where are the words counted?';
    const before = await index.searchCode(question);
    await index.prepareForQuestions();
    assert.deepEqual(await index.searchCode(question), before, 'what it keeps per file ahead of time changes no answer');
    assert.equal(before[0]!.path, 'src/frequency.ts');
    // The ranking keeps a path's role per version of a file's facts: the renamed file's facts are new, and so is its role.
    renameSync(join(fx.root, 'src/frequency.ts'), join(fx.root, 'src/frequency.test.ts'));
    await index.refreshFiles([join(fx.root, 'src/frequency.ts'), join(fx.root, 'src/frequency.test.ts')]);
    const paths = (await index.searchCode(question)).map((hit) => hit.path);
    assert.ok(paths.includes('src/histogram.ts') && paths.includes('src/frequency.test.ts'), paths.join(', '));
    assert.ok(paths.indexOf('src/histogram.ts') < paths.indexOf('src/frequency.test.ts'), `the test ranks below the code: ${paths.join(', ')}`);
  });

  it('a re-opened index takes in a word it saved with no file left (an empty list), and one it knew', async () => {
    const frequency = join(fx.root, 'src/frequency.ts');
    const withZebra = '// Zebra crossings are tallied here.\nexport function tally(words: string[]): number {\n  return words.length;\n}\n';
    writeFileSync(frequency, withZebra);
    const index = await fx.open();
    await index.update();
    writeFileSync(frequency, 'export const nothing = 0;\n');
    await index.refreshFiles([frequency]); // saved: "zebra" and "crossings" with no file
    await index.dispose();
    const reopened = await fx.open();
    assert.equal((await reopened.update()).parsedFiles, 0);
    assert.deepEqual(await reopened.searchCode('zebra crossings'), []);
    writeFileSync(frequency, withZebra);
    writeFileSync(join(fx.root, 'src/tokenize.ts'), 'export function tokenize(text: string): string[] {\n  return countWords(text);\n}\n');
    await reopened.refreshFiles([frequency, join(fx.root, 'src/tokenize.ts')]);
    assert.equal((await reopened.searchCode('zebra crossings'))[0]?.path, 'src/frequency.ts');
    assert.equal((await reopened.searchCode('countWords tokenize'))[0]?.path, 'src/tokenize.ts');
  });

  it('saves its index as ASCII and reads back the text past it as written (accents, a dash, an emoji)', async () => {
    fx.folder.write({ 'src/größe.py': '"""Größe — die Maße 📏 eines Körpers."""\n\ndef größe_berechnen(körper):\n    return körper.maße\n' });
    await (await fx.open()).update();
    const [saved] = readdirSync(fx.storeDir).filter((f) => f.endsWith('.json'));
    const bytes = readFileSync(join(fx.storeDir, saved!));
    assert.ok(
      bytes.every((byte) => byte < 0x80),
      'every byte of the saved index is ASCII',
    );
    assert.match(JSON.stringify(JSON.parse(bytes.toString('latin1')).contents.files), /Größe — die Maße 📏 eines Körpers/);
    const reopened = await fx.open();
    assert.equal((await reopened.update()).parsedFiles, 0);
    const [found] = await reopened.findSymbol('größe_berechnen');
    assert.deepEqual({ path: found?.path, signature: found?.signature }, { path: 'src/größe.py', signature: 'def größe_berechnen(körper)' });
    assert.equal((await reopened.searchCode('Maße eines Körpers'))[0]?.path, 'src/größe.py');
    // As versions before saved it: UTF-8, nothing escaped.
    writeFileSync(join(fx.storeDir, saved!), JSON.stringify(JSON.parse(bytes.toString('latin1'))), 'utf8');
    const fromUtf8 = await fx.open();
    assert.equal((await fromUtf8.update()).parsedFiles, 0);
    assert.equal((await fromUtf8.findSymbol('größe_berechnen'))[0]?.signature, 'def größe_berechnen(körper)');
  });

  const damagedTextIndexes: Array<[string, (text: { terms: string[]; counts: string }) => void, RegExp]> = [
    [
      'postings its terms do not account for',
      (text) => (text.counts = base64(new Int32Array(text.terms.length).fill(1))),
      /search index is damaged \(the saved text index has postings its terms do not account for\)/,
    ],
    ['a term listed twice', (text) => (text.terms[1] = text.terms[0]!), /search index is damaged \(the saved text index lists a term twice\)/],
  ];
  for (const [damage, spoil, warning] of damagedTextIndexes) {
    it(`a saved text index with ${damage} is rebuilt with a warning`, async () => {
      await (await fx.open()).update();
      const [saved] = readdirSync(fx.storeDir).filter((f) => f.endsWith('.json'));
      const snapshot = JSON.parse(readFileSync(join(fx.storeDir, saved!), 'utf8'));
      spoil(snapshot.contents.text);
      writeFileSync(join(fx.storeDir, saved!), JSON.stringify(snapshot));
      const index = await fx.open();
      const status = await index.update();
      assert.match((status.warnings ?? []).join('\n'), warning);
      assert.equal(status.parsedFiles, 3);
      assert.equal((await index.searchCode('tokenize'))[0]?.path, 'src/tokenize.ts');
    });
  }

  it('a full update after files changed on disk re-reads only those (content hash, not just time)', async () => {
    const index = await fx.open();
    await index.update();
    const touched = join(fx.root, 'src/tokenize.ts');
    writeFileSync(touched, readFileSync(touched, 'utf8'));
    utimesSync(touched, new Date(), new Date(Date.now() + 60_000)); // a new time, the same content: hashed, not parsed
    writeFileSync(join(fx.root, 'src/frequency.ts'), 'export const changed = 1;\n');
    const status = await index.update();
    assert.equal(status.parsedFiles, 1, 'only the changed file was parsed');
    assert.equal((await index.findSymbol('changed'))[0]!.path, 'src/frequency.ts');
  });

  it('a corrupt saved index is moved aside with a warning and rebuilt, never a crash', async () => {
    await (await fx.open()).update();
    const [saved] = readdirSync(fx.storeDir).filter((f) => f.endsWith('.json'));
    writeFileSync(join(fx.storeDir, saved!), '{"version": 1, "roots": [');
    const index = await fx.open();
    const status = await index.update();
    assert.equal(status.state, 'ready');
    assert.equal(status.parsedFiles, 3, 'rebuilt from the files');
    assert.match((status.warnings ?? []).join('\n'), /saved code index could not be used: it is not valid JSON .*kept as .*corrupt.*It is being rebuilt/);
    assert.ok(
      readdirSync(fx.storeDir).some((f) => f.includes('.corrupt-')),
      'the bad file is kept for a bug report',
    );
    assert.equal((await index.findSymbol('countWords'))[0]!.path, 'src/frequency.ts');
  });

  it('an index saved with a malformed symbol is rebuilt too', async () => {
    await (await fx.open()).update();
    const [saved] = readdirSync(fx.storeDir).filter((f) => f.endsWith('.json'));
    const snapshot = JSON.parse(readFileSync(join(fx.storeDir, saved!), 'utf8'));
    snapshot.contents.files[0].symbols = [{ name: 42 }];
    writeFileSync(join(fx.storeDir, saved!), JSON.stringify(snapshot));
    const status = await (await fx.open()).update();
    assert.match((status.warnings ?? []).join('\n'), /malformed symbol/);
    assert.equal(status.parsedFiles, 3);
  });

  it('is usable while it builds: a search during the build answers from what is indexed and says so', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 400; i++) many[`gen/module${i}.ts`] = `export function handler${i}(input: string): string {\n  return input + ${i};\n}\n`;
    fx.folder.write(many);
    // Every step reports progress, so the search lands mid-build however fast the machine is.
    const index = await fx.open({}, false, 0);
    let during: Promise<[Awaited<ReturnType<typeof index.findSymbol>>, Awaited<ReturnType<typeof index.questionContext>>]> | undefined;
    index.onStatus((status) => {
      if (!during && status.state === 'building' && status.indexedFiles > 50 && status.indexedFiles < status.totalFiles) {
        during = Promise.all([index.findSymbol('handler1'), index.questionContext('handler1 input')]);
      }
    });
    await index.update();
    assert.ok(during, 'progress was reported between none and all');
    const [found, context] = await during;
    assert.equal(found[0]?.path, 'gen/module1.ts', 'a file indexed before the search is found');
    assert.ok(context.partial && context.partial.indexedFiles < context.partial.totalFiles, 'the candidates say they come from part of the workspace');
    assert.equal((await index.findSymbol('handler399'))[0]!.path, 'gen/module399.ts');
  });

  it('an update can be cancelled; what it indexed stays searchable', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 600; i++) many[`gen/m${i}.py`] = `def job_${i}():\n    return ${i}\n`;
    fx.folder.write(many);
    // Progress after every file: with the default throttle a fast machine indexes all 600 before reporting one count over 50.
    const index = await fx.open({}, false, 0);
    const controller = new AbortController();
    index.onStatus((status) => {
      if (status.state === 'building' && status.indexedFiles > 50) controller.abort();
    });
    await assert.rejects(index.update({ signal: controller.signal }), /abort/i);
    const status = index.status();
    assert.notEqual(status.state, 'ready');
    assert.ok(status.indexedFiles > 0 && status.indexedFiles < 603, `partial: ${status.indexedFiles}`);
    assert.equal((await index.update()).state, 'ready', 'the next update finishes the job');
  });
});
