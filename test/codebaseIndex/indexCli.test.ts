import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const FILES = {
  'src/frequency.ts':
    '/** Counts every word except stop words. */\nexport function countWords(\n  words: readonly string[],\n): Map<string, number> {\n  return new Map();\n}\n',
  'src/stopWords.ts': 'export const STOP_WORDS = new Set(["a", "the"]);\n',
  'pkg/tokenize.py': 'def split_sentences(text):\n    """Splits text into sentences."""\n    return text.split(".")\n',
};

/** The built CLI (the bundle, with its wasm grammars) as a child process: `index`, `search`, and `ask` starting from the index. */
describe('codewiki index, search and ask with the code index (built CLI)', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let cache: string;
  let server: OpenAiTestServer | undefined;
  const env = () => ({ CODEWIKI_CACHE_DIR: cache });
  beforeEach(() => {
    ws = tempWorkspace(FILES);
    cache = mkdtempSync(join(tmpdir(), 'codewiki-cli-cache-'));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    ws.cleanup();
    rmSync(cache, { recursive: true, force: true });
  });

  it('index builds with tree-sitter from the bundle, saves in the cache folder, and re-reads only changed files', async () => {
    const first = await runCli(['index', '--workspace', ws.root, '--json'], { env: env() });
    assert.equal(first.code, 0, first.stderr);
    const status = JSON.parse(first.stdout);
    assert.equal(status.indexedFiles, 3);
    assert.equal(status.parsedFiles, 3);
    assert.equal(status.warnings, undefined, 'no grammar fell back to the outline');
    assert.equal(readdirSync(join(cache, 'index')).length, 1);
    writeFileSync(join(ws.root, 'src/stopWords.ts'), 'export const STOP_WORDS = new Set(["an"]);\n');
    const second = await runCli(['index', '--workspace', ws.root], { env: env() });
    assert.match(second.stdout, /^3 files, 3 definitions \(1 read and parsed, the rest unchanged\) in \d+\.\d s; saved index [\d.]+ KB\n$/);
  });

  it('search prints ranked path:line rows, the exact definition first; the bundle parsed the multi-line signature', async () => {
    const result = await runCli(['search', 'countWords', '--workspace', ws.root], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(
      result.stdout.split('\n')[0],
      'src/frequency.ts:2  function countWords: export function countWords( words: readonly string[], ): Map<string, number>',
    );
    const words = await runCli(['search', 'where are sentences split', '--workspace', ws.root, '--json'], { env: env() });
    const parsed = JSON.parse(words.stdout);
    assert.equal(parsed.hits[0].path, 'pkg/tokenize.py');
    assert.deepEqual(parsed.hits[0].symbols[0], { name: 'split_sentences', kind: 'function', line: 1, signature: 'def split_sentences(text)' });
    const none = await runCli(['search', 'zzzqqq', '--workspace', ws.root], { env: env() });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /nothing in the index matches "zzzqqq"/);
  });

  it("a C function only declared (a prototype, no body indexed) is said to be declared, by search and by ask's card", async () => {
    mkdirSync(join(ws.root, 'include'));
    writeFileSync(join(ws.root, 'include/ring.h'), '#ifndef RING_H\n#define RING_H\nint ring_size(const struct ring *r);\n#endif\n');
    const search = await runCli(['search', 'ring_size', '--workspace', ws.root], { env: env() });
    assert.equal(search.stdout.split('\n')[0], 'include/ring.h:3  declared function ring_size: int ring_size(const struct ring *r);');
    server = new OpenAiTestServer([{ text: 'It is declared in include/ring.h:3.' }]);
    await server.start();
    const ask = await runCli(['ask', 'Where is `ring_size` defined?', '--workspace', ws.root, '--base-url', server.url, '--model', 'm'], { env: env() });
    assert.equal(ask.code, 0, ask.stderr);
    assert.match(ask.stderr, /^◆ ring_size \(declared function\) — include\/ring\.h:3 {2}int ring_size\(/m);
    const sent = String(server.requests[0]!.body!.messages!.find((m) => m.role === 'tool')!.content);
    assert.match(sent, /include\/ring\.h:3 declares ring_size \(function\)/);
    assert.doesNotMatch(sent, /RING_H/, 'the include guard is neither a definition nor a line worth sending');
  });

  it('ask prints the definition card on stderr before the answer, stdout carries the answer only, and the request carried the candidates', async () => {
    server = new OpenAiTestServer([{ text: 'countWords is in src/frequency.ts:2.' }]);
    await server.start();
    const result = await runCli(['ask', 'Where is countWords defined?', '--workspace', ws.root, '--base-url', server.url, '--model', 'm'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'countWords is in src/frequency.ts:2.\n');
    const lines = result.stderr.split('\n').filter(Boolean);
    assert.deepEqual(lines.slice(0, 2), [
      'indexing the workspace…',
      'indexed: 3 files, 3 definitions (3 read and parsed, the rest unchanged)' + lines[1]!.slice(lines[1]!.indexOf(') in') + 1),
    ]);
    const card = lines.findIndex((line) => /^◆ countWords \(function\) — src\/frequency\.ts:2 {2}export function countWords\(/.test(line));
    const sent = lines.findIndex((line) => /^⌕ index: \d candidate files? \(\d+ tokens\) sent with the question$/.test(line));
    assert.ok(card > 0 && sent > card, result.stderr);
    const search = server.requests[0]!.body!.messages!.find((m) => m.role === 'tool')!;
    assert.match(String(search.content), /src\/frequency\.ts:2 defines countWords \(function\)/);
    assert.match(result.stderr, /✓ search_code query="Where is countWords defined\?"/, 'the search CodeWiki made is shown like any call');
  });

  it('ask to a pipe prints the answer only, without the one the agent sent back (stderr says why)', async () => {
    server = new OpenAiTestServer([{ text: 'The frequency module counts them.' }, { text: 'src/frequency.ts:2 counts the words.' }]);
    await server.start();
    const result = await runCli(['ask', 'Where are the words counted?', '--workspace', ws.root, '--base-url', server.url, '--model', 'm'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'src/frequency.ts:2 counts the words.\n');
    assert.match(result.stderr, /^! the answer named no file; CodeWiki asked the model which file it is$/m);
    assert.equal(server.requests.length, 2);
  });

  it('ask --no-index sends the question alone and offers no index tools', async () => {
    server = new OpenAiTestServer([{ text: 'ok' }]);
    await server.start();
    const result = await runCli(['ask', 'Where is countWords defined?', '--no-index', '--workspace', ws.root, '--base-url', server.url, '--model', 'm'], {
      env: env(),
    });
    assert.equal(result.code, 0, result.stderr);
    const body = server.requests[0]!.body!;
    assert.equal(body.messages!.find((m) => m.role === 'user')!.content, 'Where is countWords defined?');
    const tools = body.tools!.map((t) => t.function.name);
    for (const name of ['find_symbol', 'search_code', 'repo_map']) assert.ok(!tools.includes(name), name);
    assert.ok(tools.includes('search_text'));
    assert.doesNotMatch(result.stderr, /◆/);
  });
});
