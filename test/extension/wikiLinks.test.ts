import { strict as assert } from 'node:assert';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Workspace } from '../../src/core/workspace/workspace';
import { resolveWikiLink } from '../../src/extension/wiki/wikiLinks';
import { makeTempFolder, type TempFolder } from '../tools/helpers/tempWorkspace';

/**
 * Links in a wiki page come from Markdown a model wrote about the workspace, so the panel resolves each
 * one here before acting on it: pages of the wiki, files of the workspace (through symlinks, secrets
 * refused), and nothing else.
 */
describe('wiki panel: resolving a link in a page', () => {
  let folder: TempFolder;
  let outside: string;
  let workspace: Workspace;
  let wikiDir: string;

  beforeEach(async () => {
    folder = makeTempFolder('codewiki-wiki-links-');
    folder.write({
      'src/a.ts': 'export const a = 1;\n',
      '.env': 'KEY=secret\n',
      '.codewiki/wiki/index.md': '# Wiki\n',
      '.codewiki/wiki/modules/src.md': '# src\n',
    });
    outside = mkdtempSync(join(tmpdir(), 'codewiki-wiki-links-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'not yours\n');
    symlinkSync(outside, join(folder.path, 'src', 'escape'));
    workspace = await Workspace.open(folder.path);
    wikiDir = join(workspace.root, '.codewiki', 'wiki');
  });

  afterEach(() => {
    folder.cleanup();
    rmSync(outside, { recursive: true, force: true });
  });

  const resolve = (page: string, href: string) => resolveWikiLink({ page, href }, wikiDir, workspace);
  const file = (relative: string) => realpathSync(join(folder.path, relative));

  it('a relative .md link inside the wiki folder is a page, from the front page or a module page', async () => {
    assert.deepEqual(await resolve('index.md', 'modules/src.md'), { kind: 'page', path: 'modules/src.md' });
    assert.deepEqual(await resolve('modules/src.md', '../index.md'), { kind: 'page', path: 'index.md' });
    assert.deepEqual(await resolve('modules/src.md', 'src.md#overview'), { kind: 'page', path: 'modules/src.md' });
  });

  it('a code link opens the file, at the line of #L12 or the lines of #L3-L5', async () => {
    assert.deepEqual(await resolve('index.md', '../../src/a.ts#L12'), {
      kind: 'file',
      absolute: file('src/a.ts'),
      directory: false,
      lines: { start: 12, end: 12 },
    });
    assert.deepEqual(await resolve('modules/src.md', '../../../src/a.ts#L3-L5'), {
      kind: 'file',
      absolute: file('src/a.ts'),
      directory: false,
      lines: { start: 3, end: 5 },
    });
    assert.deepEqual(await resolve('index.md', '../../src/a.ts'), { kind: 'file', absolute: file('src/a.ts'), directory: false });
    assert.deepEqual(await resolve('index.md', '../../src'), { kind: 'file', absolute: file('src'), directory: true });
    // Percent-encoding is read as a browser would write it.
    assert.deepEqual(await resolve('index.md', '../../src/%61.ts#L1'), {
      kind: 'file',
      absolute: file('src/a.ts'),
      directory: false,
      lines: { start: 1, end: 1 },
    });
  });

  it('refuses schemes, absolute paths, escapes from the workspace, symlinks that lead out and secret files', async () => {
    const refused = [
      'https://example.com/a.ts',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'command:workbench.action.terminal.new',
      'vscode://file/etc/passwd',
      'file:///etc/passwd',
      'data:text/html,<script>1</script>',
      '/etc/passwd',
      '//evil.example/x',
      '%2Fetc%2Fpasswd',
      '../../../../../../../../etc/passwd',
      '../../../outside.ts',
      '../../src/escape/secret.txt',
      '../../.env',
      '../../src/a.ts%00.md',
      'java\tscript:alert(1)',
      '#L12',
      '../../src/missing.ts',
    ];
    for (const href of refused) assert.equal(await resolve('index.md', href), undefined, href);
  });

  it('refuses a page outside the wiki folder as the base of a link', async () => {
    assert.equal(await resolve('../../src/x.md', 'a.ts'), undefined);
    assert.equal(await resolve('/etc/index.md', '../passwd'), undefined);
    assert.equal(await resolve('index.txt', '../../src/a.ts'), undefined);
    // A .md link that climbs out of the wiki folder is not a page; it is a workspace file like any other, when it exists.
    assert.equal(await resolve('index.md', '../../README.md'), undefined);
  });
});
