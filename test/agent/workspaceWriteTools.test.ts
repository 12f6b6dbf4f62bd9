import { strict as assert } from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ToolRegistry } from '../../src/core/tools/toolRegistry';
import { isPreviewableTool, registerWorkspaceWriteTools, unifiedDiff, type PreviewableTool } from '../../src/core/tools/workspace-write';
import { Workspace } from '../../src/core/workspace/workspace';
import { makeTempFolder, rejectionOf, type TempFolder } from '../tools/helpers/tempWorkspace';

describe('workspace write tools', () => {
  let ws: TempFolder;
  let outside: TempFolder;
  let registry: ToolRegistry;
  const tool = (name: string) => registry.get(name)!.tool as PreviewableTool;
  const read = (path: string) => readFileSync(join(ws.path, path), 'utf8');

  beforeEach(async () => {
    ws = makeTempFolder();
    outside = makeTempFolder('codewiki-outside-');
    ws.write({ 'src/a.ts': 'one\ntwo\nthree\n', 'crlf.txt': 'alpha\r\nbeta\r\n', 'bin.dat': Buffer.from([1, 0, 2]) });
    outside.write({ 'target.txt': 'outside\n' });
    registry = new ToolRegistry();
    registerWorkspaceWriteTools(registry, await Workspace.open(ws.path), { command: { timeoutMs: 2_000, maxOutputBytes: 200 } });
  });
  afterEach(() => {
    ws.cleanup();
    outside.cleanup();
  });

  it('registers write_file and edit_file as write, run_command as execute, all agent-callable and previewable', () => {
    assert.deepEqual(
      registry.list().map((e) => [e.metadata.name, e.metadata.kind, e.metadata.category, e.metadata.agentCallable, isPreviewableTool(e.tool)]),
      [
        ['write_file', 'write', 'file', true, true],
        ['edit_file', 'write', 'file', true, true],
        ['run_command', 'execute', 'shell', true, true],
      ],
    );
  });

  describe('edit_file', () => {
    it('replaces text that occurs exactly once, previewing the diff before writing', async () => {
      const prepared = await tool('edit_file').prepare({ path: 'src/a.ts', old_text: 'two\n', new_text: 'TWO\n2\n' });
      assert.equal(read('src/a.ts'), 'one\ntwo\nthree\n', 'nothing written by prepare');
      assert.deepEqual(prepared.preview, {
        type: 'diff',
        path: 'src/a.ts',
        action: 'edit',
        diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,4 @@\n one\n-two\n+TWO\n+2\n three\n',
        added: 2,
        removed: 1,
      });
      assert.equal(await prepared.apply(), 'Edited src/a.ts: replaced 1 occurrence (+2 −1 lines).');
      assert.equal(read('src/a.ts'), 'one\nTWO\n2\nthree\n');
    });

    it('refuses 0 or several matches with the number of matches, overlapping ones included', async () => {
      ws.write({ 'rep.txt': 'aaa\n' });
      assert.match(
        (await rejectionOf(tool('edit_file').prepare({ path: 'src/a.ts', old_text: 'four', new_text: 'x' }))).message,
        /not found in src\/a\.ts \(0 matches\)/,
      );
      assert.match(
        (await rejectionOf(tool('edit_file').prepare({ path: 'rep.txt', old_text: 'aa', new_text: 'b' }))).message,
        /occurs 2 times in rep\.txt; it must occur exactly once/,
      );
      assert.match((await rejectionOf(tool('edit_file').prepare({ path: 'src/a.ts', old_text: 'one', new_text: 'one' }))).message, /nothing would change/);
      assert.match((await rejectionOf(tool('edit_file').prepare({ path: 'nope.ts', old_text: 'a', new_text: 'b' }))).message, /does not exist; use write_file/);
      assert.match((await rejectionOf(tool('edit_file').prepare({ path: 'bin.dat', old_text: 'a', new_text: 'b' }))).message, /binary file/);
    });

    it('keeps CRLF files in CRLF when the model writes \\n', async () => {
      await (await tool('edit_file').prepare({ path: 'crlf.txt', old_text: 'alpha\nbeta', new_text: 'alpha\ngamma' })).apply();
      assert.equal(read('crlf.txt'), 'alpha\r\ngamma\r\n');
    });

    it('writes nothing when the file changed after the preview', async () => {
      const prepared = await tool('edit_file').prepare({ path: 'src/a.ts', old_text: 'two', new_text: '2' });
      writeFileSync(join(ws.path, 'src/a.ts'), 'one\ntwo\nthree\nfour\n');
      assert.match((await rejectionOf(prepared.apply())).message, /changed on disk after the change was previewed; nothing was written/);
      assert.equal(read('src/a.ts'), 'one\ntwo\nthree\nfour\n');
    });
  });

  describe('write_file', () => {
    it('creates files (and folders) and replaces files, with a diff preview', async () => {
      const created = await tool('write_file').prepare({ path: 'new/dir/x.md', content: 'hello' });
      assert.equal((created.preview as { diff: string }).diff, '--- /dev/null\n+++ b/new/dir/x.md\n@@ -0,0 +1 @@\n+hello\n\\ No newline at end of file\n');
      assert.equal(existsSync(join(ws.path, 'new')), false, 'nothing created by prepare');
      await created.apply();
      assert.equal(read('new/dir/x.md'), 'hello');
      const replaced = await tool('write_file').prepare({ path: 'src/a.ts', content: 'one\n' });
      assert.equal((replaced.preview as { action: string }).action, 'replace');
      await replaced.apply();
      assert.equal(read('src/a.ts'), 'one\n');
    });

    it('stays inside the workspace and away from secrets and .git (security promise #7)', async () => {
      mkdirSync(join(ws.path, '.git/hooks'), { recursive: true });
      symlinkSync(outside.path, join(ws.path, 'link-out'));
      symlinkSync(join(outside.path, 'target.txt'), join(ws.path, 'file-link-out'));
      const refused: Array<[string, RegExp]> = [
        ['../escape.txt', /outside the workspace/],
        [join(outside.path, 'abs.txt'), /outside the workspace/],
        ['link-out/planted.txt', /outside the workspace/],
        ['link-out/new/deeper.txt', /outside the workspace/],
        ['file-link-out', /symbolic link that leads outside/],
        ['.env', /may contain secrets/],
        ['config/.env.local', /may contain secrets/],
        ['keys/server.pem', /may contain secrets/],
        ['.git/hooks/pre-commit', /inside \.git/],
        ['a\0b', /NUL byte/],
      ];
      for (const [path, expected] of refused) {
        const error = await rejectionOf(tool('write_file').prepare({ path, content: 'pwned' }));
        assert.match(error.message, expected, path);
      }
      assert.equal(readFileSync(join(outside.path, 'target.txt'), 'utf8'), 'outside\n');
      assert.equal(existsSync(join(outside.path, 'planted.txt')), false);
      assert.equal(existsSync(join(ws.path, '.git/hooks/pre-commit')), false);
    });

    it('refuses content over the file size cap', async () => {
      const small = new ToolRegistry();
      registerWorkspaceWriteTools(small, await Workspace.open(ws.path, { maxFileBytes: 10 }));
      assert.match(
        (await rejectionOf((small.get('write_file')!.tool as PreviewableTool).prepare({ path: 'big.txt', content: 'x'.repeat(11) }))).message,
        /over the 10 bytes limit/,
      );
    });
  });

  describe('run_command', () => {
    it('runs in the workspace (or a folder inside it) and reports exit code, stdout and stderr', async () => {
      const prepared = await tool('run_command').prepare({ command: 'echo out; echo err >&2; exit 3', cwd: 'src' });
      assert.deepEqual(prepared.preview, { type: 'command', command: 'echo out; echo err >&2; exit 3', cwd: 'src', timeoutMs: 2_000 });
      assert.equal(await prepared.apply(), '$ echo out; echo err >&2; exit 3   (in src)\nexit code 3\n--- stdout ---\nout\n--- stderr ---\nerr');
      assert.match((await rejectionOf(tool('run_command').prepare({ command: 'ls', cwd: '..' }))).message, /outside the workspace/);
      assert.match((await rejectionOf(tool('run_command').prepare({ command: 'ls', cwd: 'src/a.ts' }))).message, /not a folder/);
    });

    it('caps output, keeping the start and the end', async () => {
      const output = await (await tool('run_command').prepare({ command: `node -e "for (let i = 0; i < 200; i++) console.log('line ' + i)"` })).apply();
      assert.match(output, /line 0\n/);
      assert.match(output, /line 199\n--- stderr ---/);
      assert.match(output, /\[.* of output omitted by CodeWiki; .* in all\]/);
    });

    it('kills the command at its timeout and on Stop, whole process group included', async () => {
      const timedOut = await (await tool('run_command').prepare({ command: 'sleep 5; touch late1.txt' })).apply();
      assert.match(timedOut, /timed out after 2 s and was killed/);
      const controller = new AbortController();
      const running = (await tool('run_command').prepare({ command: 'sleep 0.5 && touch late2.txt' })).apply(controller.signal);
      setTimeout(() => controller.abort(), 100);
      assert.equal((await rejectionOf(running)).name, 'AbortError');
      await new Promise((resolve) => setTimeout(resolve, 800));
      assert.equal(existsSync(join(ws.path, 'late1.txt')), false);
      assert.equal(existsSync(join(ws.path, 'late2.txt')), false);
    });

    it('does not hand the model API key to the command', async () => {
      const saved = process.env.CODEWIKI_API_KEY;
      process.env.CODEWIKI_API_KEY = 'sk-secret-for-test';
      try {
        const output = await (await tool('run_command').prepare({ command: 'env' })).apply();
        assert.doesNotMatch(output, /sk-secret-for-test/);
      } finally {
        if (saved === undefined) delete process.env.CODEWIKI_API_KEY;
        else process.env.CODEWIKI_API_KEY = saved;
      }
    });
  });

  describe('unifiedDiff', () => {
    const hasPatch = spawnSync('patch', ['--version']).status === 0;

    it('matches what patch(1) applies, on random edits', function () {
      if (!hasPatch) this.skip();
      let seed = 7;
      const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
      for (let round = 0; round < 60; round++) {
        const before = Array.from({ length: random(30) }, () => `l${random(8)}`);
        const after = [...before];
        for (let edits = random(6); edits > 0; edits--) {
          const at = random(after.length + 1);
          if (random(2)) after.splice(at, 1);
          else after.splice(at, 0, `n${random(5)}`);
        }
        const oldText = before.join('\n') + (random(2) ? '\n' : '');
        const newText = after.join('\n') + (random(2) ? '\n' : '');
        const { diff } = unifiedDiff(oldText, newText, { old: 'a/f.txt', new: 'b/f.txt' });
        if (oldText === newText) continue;
        ws.write({ 'f.txt': oldText });
        execFileSync('patch', ['-s', '-p1', '-i', '-'], { cwd: ws.path, input: diff });
        assert.equal(read('f.txt'), newText, `round ${round}\n${diff}`);
      }
    });

    it('texts too different for the exact edit script (over 2,000 changed lines) still give a diff patch(1) applies, old out and new in', function () {
      if (!hasPatch) this.skip();
      const oldText = Array.from({ length: 1_500 }, (_, i) => `old ${i}`).join('\n') + '\n';
      const newText = Array.from({ length: 1_500 }, (_, i) => `new ${i}`).join('\n');
      const { diff, added, removed } = unifiedDiff(oldText, newText, { old: 'a/f.txt', new: 'b/f.txt' });
      assert.deepEqual([added, removed], [1_500, 1_500]);
      assert.match(diff, /^@@ -1,1500 \+1,1500 @@$/m);
      ws.write({ 'f.txt': oldText });
      execFileSync('patch', ['-s', '-p1', '-i', '-'], { cwd: ws.path, input: diff });
      assert.equal(read('f.txt'), newText);
    });
  });
});
