import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { WikiModule, WikiStructure } from '../../src/core/wiki/wikiTypes';
import { EXPECTED_MODULES, HOSTILE_FOLDER, WikiRepo, wikiRepoFiles } from './wikiFixture';
import { definesName, linkTarget, mermaidBlocks, readDiagram, readWikiPages, renderPage } from './wikiPageReading';

/** What the fixture's imports say, module to module: tiny's imports of util stay inside util, its one import of core is util's. */
const EXPECTED_LINKS = [
  ['cli', 'core'],
  ['cli', 'util'],
  ['core', 'util'],
  [HOSTILE_FOLDER, 'util'],
  ['plugin', 'core'],
  ['util', 'core'],
];

/** The only statements a module diagram may hold: boxes with quoted labels, arrows, and the one focus style. */
const DIAGRAM_LINE = [
  /^graph LR$/,
  /^ {2}m\d+\["[A-Za-z0-9_./@ -]*"\]$/,
  /^ {2}m\d+ --> m\d+$/,
  /^ {2}classDef focus stroke-width:3px$/,
  /^ {2}class m\d+(,m\d+)* focus$/,
];

describe('wiki structure from the code index (real files, no model)', () => {
  let repo: WikiRepo;
  let wiki: WikiStructure;
  let pages: Map<string, string>;
  const module = (id: string): WikiModule => wiki.modules.find((entry) => entry.id === id) ?? assert.fail(`no module ${id}`);
  const pageOf = (id: string): string => pages.get(module(id).page) ?? assert.fail(`no page for ${id}`);

  before(async () => {
    repo = await WikiRepo.open();
    ({ wiki } = await repo.engine.wiki.updateStructure());
    pages = readWikiPages(repo.engine.wiki.wikiDir);
  });
  after(async () => repo.close());

  it('makes a module of each folder, folds a tiny folder into the module it imports, keeps a package alone, and leaves out tests and docs', () => {
    assert.deepEqual(wiki.modules.map((entry) => entry.id).sort(), EXPECTED_MODULES);
    assert.deepEqual(module('util').alsoFolders, ['tiny']);
    assert.deepEqual(
      module('util')
        .files.filter((path) => path.startsWith('tiny/'))
        .sort(),
      ['tiny/color.ts', 'tiny/format.ts'],
    );
    assert.deepEqual(module('plugin').files.sort(), ['plugin/src/hooks.ts', 'plugin/src/index.ts'], 'a two-file package is still its own module');
    const everyFile = wiki.modules.flatMap((entry) => entry.files);
    assert.ok(!everyFile.some((path) => /^(tests|docs)\/|README\.md$|package\.json$/.test(path)), everyFile.join(', '));
    assert.equal(wiki.codeFiles, 21);
    assert.deepEqual([...pages.keys()].sort(), ['index.md', ...wiki.modules.map((entry) => entry.page)].sort());
    assert.match(pageOf('util'), /also covers `tiny`/);
  });

  it('ranks a class most files import above a helper used once, on the page too', () => {
    const names = module('core').definitions.map((definition) => definition.name);
    assert.equal(names[0], 'TaskRegistry', names.join(', '));
    assert.ok(names.indexOf('TaskRegistry') < names.indexOf('formatRunSummary'), names.join(', '));
    const page = pageOf('core');
    const registry = page.indexOf('[`TaskRegistry`]');
    const helper = page.indexOf('[`formatRunSummary`]');
    assert.ok(registry > 0 && helper > registry, 'the page lists TaskRegistry first');
    assert.match(page, /\[`TaskRegistry`\]\(\.\.\/\.\.\/\.\.\/core\/registry\.ts#L4\) class, used in \d+ other files: Every task the engine knows, by name\./);
  });

  it('names entry points: files named as ways in, and the files other modules use most', () => {
    assert.ok(module('cli').entryPoints.some((entry) => entry.path === 'cli/main.ts' && /by name/.test(entry.reason)));
    assert.ok(module('plugin').entryPoints.some((entry) => entry.path === 'plugin/src/index.ts'));
    assert.equal(module('core').entryPoints[0]?.path, 'core/registry.ts');
    assert.match(module('core').entryPoints[0]!.reason, /used by [2-9] files outside the module/);
    assert.match(pageOf('cli'), /## Entry points\n\n- \[`cli\/main\.ts`\]\(\.\.\/\.\.\/\.\.\/cli\/main\.ts\): entry point by name/);
  });

  it('says what each module depends on and what uses it, from the imports', () => {
    assert.deepEqual(wiki.links.map(([from, to]) => [from, to]).sort(), [...EXPECTED_LINKS].sort());
    assert.deepEqual(
      module('core').dependsOn.map((link) => link.module),
      ['util'],
    );
    assert.deepEqual(
      module('core')
        .usedBy.map((link) => link.module)
        .sort(),
      ['cli', 'plugin', 'util'],
    );
    assert.deepEqual(
      module('util').dependsOn.map((link) => [link.module, link.files]),
      [['core', ['core/types.ts']]],
      'through tiny/format.ts, the one file of util that imports core',
    );
    assert.deepEqual(
      module('util')
        .usedBy.map((link) => link.module)
        .sort(),
      ['cli', 'core', HOSTILE_FOLDER].sort(),
    );
    const core = pageOf('core');
    assert.match(core, /## Depends on\n\n- \[`util`\]\(util\.md\): \[`paths\.ts`\]\(\.\.\/\.\.\/\.\.\/util\/paths\.ts\)\n/);
    const usedBy = /## Used by\n\n([\s\S]*?)\n\n/.exec(core)?.[1] ?? '';
    assert.deepEqual(
      usedBy.split('\n').map((line) => /^- \[`([^`]+)`\]\(([^)]+)\)/.exec(line)?.slice(1)),
      [
        ['cli', 'cli.md'],
        ['plugin', 'plugin.md'],
        ['util', 'util.md'],
      ],
    );
  });

  it('draws the modules and their edges in Mermaid with nothing but boxes and arrows, whatever a folder is named', () => {
    const [architecture] = mermaidBlocks(pages.get('index.md')!);
    assert.ok(architecture, 'the front page has an architecture diagram');
    const { labels, edges } = readDiagram(architecture);
    const hostileLabel = [...labels.values()].find((label) => label.startsWith('evil'));
    assert.ok(hostileLabel, [...labels.values()].join(' | '));
    assert.deepEqual([...labels.values()].sort(), ['cli', 'core', 'plugin', 'util', hostileLabel].sort());
    const named = (id: string) => (id === HOSTILE_FOLDER ? hostileLabel : id);
    assert.deepEqual(edges.map((edge) => edge.join('>')).sort(), EXPECTED_LINKS.map(([from, to]) => `${named(from!)}>${named(to!)}`).sort());
    for (const [page, text] of pages) {
      for (const block of mermaidBlocks(text)) {
        assert.doesNotMatch(block.join('\n'), /%%|^\s*click\b/m, `${page}: no directive, no click`);
        for (const line of block)
          assert.ok(
            DIAGRAM_LINE.some((statement) => statement.test(line)),
            `${page}: diagram line ${JSON.stringify(line)}`,
          );
      }
    }
    const hostile = readDiagram(mermaidBlocks(pageOf(HOSTILE_FOLDER))[0]!);
    assert.deepEqual(hostile.edges, [[hostileLabel, 'util']]);
  });

  it('shows a hostile folder name and doc comment as inert text: no link, image or HTML of their own', () => {
    for (const [page, text] of pages) {
      const rendered = renderPage(text);
      assert.deepEqual(rendered.images, [], `${page} has no image`);
      assert.deepEqual(rendered.html, [], `${page} has no raw HTML`);
      for (const link of rendered.links) assert.doesNotMatch(link.href, /^[a-z][a-z0-9+.-]*:/i, `${page}: only relative links, not ${link.href}`);
      assert.doesNotMatch(rendered.rendered, /<img|<a href="(javascript|https?):/i, page);
    }
    const util = renderPage(pageOf('util')).rendered;
    // The address is inline code: GitHub (like linkify here) turns a bare https:// address in text into a link, never one in code.
    assert.match(
      util,
      /Trims text\. \[click me\]\(javascript:alert\(1\)\) !\[x\]\(<code>https:\/\/evil\.example\/a\.png<\/code>\) &lt;img src=x onerror=alert\(1\)&gt;/,
    );
    const hostilePage = pageOf(HOSTILE_FOLDER);
    assert.ok(hostilePage.split('\n').includes(`# \`${HOSTILE_FOLDER}\``), 'the hostile module is named in a code span');
    const title = renderPage(hostilePage)
      .rendered.split('\n')
      .find((line) => line.startsWith('<h1>'));
    assert.equal(title, '<h1><code>evil&quot;]; click m0 call alert(1) %%{init} [x](y)</code></h1>');
  });

  it('links every name to a file that exists, definitions to the line they are defined on', () => {
    const files = wikiRepoFiles();
    const wikiDir = repo.engine.wiki.wikiDir;
    let lineLinks = 0;
    for (const [page, text] of pages) {
      for (const link of renderPage(text).links) {
        const target = linkTarget(wikiDir, page, link.href);
        assert.ok(existsSync(target.path) && statSync(target.path).isFile(), `${page}: ${link.href} leads to no file`);
        if (target.line === undefined) continue;
        lineLinks++;
        const name = link.text.split('.').at(-1)!;
        const line = readFileSync(target.path, 'utf8').split('\n')[target.line - 1] ?? '';
        assert.ok(definesName(line, name), `${page}: ${link.text} → ${link.href} is line ${JSON.stringify(line)}`);
      }
    }
    assert.ok(lineLinks >= 25, `every key definition is linked to its line (${lineLinks})`);
    const registryLine = files['core/registry.ts']!.split('\n').indexOf('export class TaskRegistry {') + 1;
    assert.ok(pages.get('index.md')!.includes(`[\`TaskRegistry\`](../../core/registry.ts#L${registryLine})`));
    const hostileLink = renderPage(pageOf(HOSTILE_FOLDER)).links.find((link) => link.text === 'deltaStep')!;
    const deltaLine = files[`${HOSTILE_FOLDER}/delta.ts`]!.split('\n').indexOf('export function deltaStep(): string {') + 1;
    assert.deepEqual(linkTarget(wikiDir, module(HOSTILE_FOLDER).page, hostileLink.href), {
      path: join(repo.root, HOSTILE_FOLDER, 'delta.ts'),
      line: deltaLine,
    });
  });
});

/** `big/parse` and `big/emit`, 30 files each (60: over a module's 50), chained within each part or across the two. */
function bigFolder(across: boolean): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [part, other] of [
    ['parse', 'emit'],
    ['emit', 'parse'],
  ] as const) {
    for (let n = 0; n < 30; n++) {
      const uses = across ? `../${other}/${other}${n}` : `./${part}${(n + 1) % 30}`;
      const name = across ? `${other}Step${n}` : `${part}Step${(n + 1) % 30}`;
      files[`big/${part}/${part}${n}.ts`] = `import { ${name} } from '${uses}';\n\nexport function ${part}Step${n}(): string {\n  return ${name}();\n}\n`;
    }
  }
  return files;
}

describe('wiki modules of a folder over 50 files (real files)', () => {
  let repo: WikiRepo | undefined;
  afterEach(async () => repo?.close());
  const moduleIds = async (across: boolean) => {
    repo = await WikiRepo.open({ extra: bigFolder(across) });
    return (await repo.engine.wiki.structure()).wiki.modules.map((module) => module.id).filter((id) => id.startsWith('big'));
  };

  it('splits into its subfolders when each keeps to itself', async () => {
    assert.deepEqual(await moduleIds(false), ['big/emit', 'big/parse']);
  });

  it('stays one module when its subfolders use each other more than themselves', async () => {
    assert.deepEqual(await moduleIds(true), ['big']);
  });
});
