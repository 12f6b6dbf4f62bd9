import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunResult } from '../../src/core/engine/executorTypes';
import { readPageParts } from '../../src/core/wiki/pages/pageSections';
import type { KeyDefinition, WikiStructure } from '../../src/core/wiki/wikiTypes';
import { modelsFor } from '../support/engineBuilders';
import { OpenAiTestServer, type RecordedRequest } from '../support/openaiServer';
import { WikiRepo } from './wikiFixture';
import { definesName, linkTarget, renderPage } from './wikiPageReading';

const BIG_FILE_LINES = 2_000;
const entry = (n: number) => `entry-${String(n).padStart(4, '0')}`;

/** A `data` module whose most used file is 2,000 lines long: its snippet must be its head, never the file. */
const DATA_MODULE = {
  'data/catalog.ts': [
    '/** Every entry the catalog knows. */',
    'export function catalogEntries(): string[] {',
    '  return [',
    ...Array.from({ length: BIG_FILE_LINES }, (_, index) => `    '${entry(index + 1)}',`),
    "    'CATALOG_TAIL_MARKER',",
    '  ];',
    '}',
    '',
  ].join('\n'),
  'data/lookup.ts':
    "import { catalogEntries } from './catalog';\n\nexport function lookupEntry(name: string): boolean {\n  return catalogEntries().includes(name);\n}\n",
  'data/count.ts': "import { catalogEntries } from './catalog';\n\nexport function countEntries(): number {\n  return catalogEntries().length;\n}\n",
  'data/first.ts': "import { catalogEntries } from './catalog';\n\nexport function firstEntry(): string {\n  return catalogEntries()[0] ?? '';\n}\n",
};

const INVENTED_FILE = 'src/nothere.ts';
const INVENTED_FUNCTION = 'inventedHelperFn';

/** The model's answer for a page: one true sentence about `definition`, two about things that do not exist, an image and a link. */
function answerAbout(definition: Pick<KeyDefinition, 'name' | 'path'>): string {
  return [
    `The \`${definition.name}\` code in \`${definition.path}\` is where to start reading.`,
    `The \`${INVENTED_FILE}\` file wires everything together.`,
    `It calls \`${INVENTED_FUNCTION}\` on startup.`,
    '![diagram](https://evil.example/a.png) More in [the docs](https://evil.example/steal?q=secret).',
  ].join(' ');
}

/** The page a request is writing, from the prompt's closing instruction. */
function pageOfRequest(request: RecordedRequest): string {
  return (
    /Write the overview for the wiki page (\S+) in at most/.exec(request.promptText)?.[1] ??
    assert.fail(`not a wiki request: ${request.promptText.slice(0, 200)}`)
  );
}

function userText(request: RecordedRequest): string {
  return (request.body?.messages ?? [])
    .filter((message) => message.role === 'user')
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
}

describe('wiki prose through the built-in "wiki" action prompt (scripted OpenAI server)', () => {
  let server: OpenAiTestServer;
  let repo: WikiRepo;
  let structure: WikiStructure;
  let result: RunResult;
  let head: string;
  const firstDefinition = (page: string) =>
    page === 'index.md'
      ? { name: 'TaskRegistry', path: 'core/registry.ts' }
      : (structure.modules.find((module) => module.page === page)?.definitions[0] ?? assert.fail(`no module has page ${page}`));
  const pageText = (page: string) => readFileSync(join(repo.engine.wiki.wikiDir, page), 'utf8');

  before(async () => {
    server = new OpenAiTestServer((request) => ({ text: answerAbout(firstDefinition(pageOfRequest(request))) }));
    await server.start();
    repo = await WikiRepo.open({ extra: DATA_MODULE, git: true, models: modelsFor(server.url) });
    head = repo.commit!;
    ({ wiki: structure } = await repo.engine.wiki.structure());
    result = await repo.engine.executor.run(repo.engine.catalog.get('wiki')!, {});
  });
  after(async () => {
    await repo?.close();
    await server?.close();
  });

  it('runs to success and asks the model once per module, then once for the front page', () => {
    assert.equal(result.status, 'success', result.log.error);
    assert.ok(structure.modules.some((module) => module.id === 'data'));
    const pages = server.requests.map(pageOfRequest);
    assert.deepEqual(pages.slice(0, -1).sort(), structure.modules.map((module) => module.page).sort());
    assert.equal(pages.at(-1), 'index.md', 'the overview comes after the modules');
  });

  it("sends each module's structure (key definitions with file:line) and capped snippets, never a whole large file", () => {
    for (const module of structure.modules) {
      const request = server.requests.find((candidate) => pageOfRequest(candidate) === module.page)!;
      const context = userText(request);
      assert.ok(context.length < 4_000, `${module.page}: ${context.length} characters`);
      for (const definition of module.definitions) {
        assert.ok(
          context.includes(definition.name) && context.includes(`${definition.path}:${definition.line}`),
          `${module.page}: ${definition.name} at ${definition.path}:${definition.line}`,
        );
      }
    }
    const data = userText(server.requests.find((request) => pageOfRequest(request) === 'modules/data.md')!);
    assert.match(data, /export function catalogEntries\(\): string\[\] \{/, 'the big file is sampled at its key definition');
    assert.ok(data.includes(entry(1)), 'with the lines after it');
    for (const request of server.requests) {
      assert.ok(
        !request.rawBody.includes('CATALOG_TAIL_MARKER') && !request.rawBody.includes(entry(BIG_FILE_LINES)),
        `${pageOfRequest(request)} carries the big file's tail`,
      );
      assert.ok(!request.rawBody.includes(entry(200)), 'nor its middle');
    }
  });

  it('keeps the true sentence with its names linked, and drops invented names, the image and the link', () => {
    const wikiDir = repo.engine.wiki.wikiDir;
    for (const page of ['index.md', ...structure.modules.map((module) => module.page)]) {
      const text = pageText(page);
      const prose = readPageParts(text).prose ?? '';
      const definition = firstDefinition(page);
      assert.match(prose, /is where to start reading\./, page);
      assert.ok(!/nothere|inventedHelperFn/.test(text), `${page} keeps no sentence with an invented name:\n${prose}`);
      // The whole page: util's doc comment shows the same text, escaped (wikiStructure.test.ts).
      assert.ok(!/evil\.example|!\[|\]\(http/.test(prose), `${page}: no image and no outside link in the prose:\n${prose}`);
      assert.match(prose, /More in the docs\./, `${page}: a link's text stays, its target goes`);
      const links = renderPage(prose).links;
      const toFile = links.find((link) => link.text === definition.path);
      assert.ok(toFile, `${page}: ${definition.path} is linked\n${prose}`);
      assert.equal(linkTarget(wikiDir, page, toFile.href).path, join(repo.root, definition.path));
      const toDefinition = links.find((link) => link.text === definition.name);
      assert.ok(toDefinition, `${page}: ${definition.name} is linked`);
      const target = linkTarget(wikiDir, page, toDefinition.href);
      assert.equal(target.path, join(repo.root, definition.path));
      assert.ok(definesName(readFileSync(target.path, 'utf8').split('\n')[target.line! - 1]!, definition.name), `${page}: ${toDefinition.href}`);
      assert.deepEqual(renderPage(text).images, [], page);
      assert.equal(readPageParts(text).meta?.prose?.removed, 2, `${page} records the two removed claims`);
    }
  });

  it('counts the removed claims in the run log, on the step that wrote each page', () => {
    const step = (id: string) => result.log.steps.find((entry) => entry.id === id)!;
    const moduleWarnings = step('modules').warnings ?? [];
    assert.equal(moduleWarnings.length, structure.modules.length, moduleWarnings.join('\n'));
    for (const module of structure.modules) {
      const warning = moduleWarnings.find((message) => message.includes(`${module.page}:`));
      assert.ok(warning, `a warning for ${module.page}`);
      assert.match(warning, /removed 2 sentence\(s\)/);
      assert.ok(warning.includes(INVENTED_FILE) && warning.includes(INVENTED_FUNCTION), warning);
    }
    assert.match((step('overview').warnings ?? []).join('\n'), /index\.md: removed 2 sentence\(s\)/);
    assert.equal(result.log.warnings.length, structure.modules.length + 1);
  });

  it('says on each page which model wrote the prose and for which commit', () => {
    for (const page of ['index.md', ...structure.modules.map((module) => module.page)]) {
      const match = /_Written by tool-model for commit ([0-9a-f]{7,40})\._/.exec(pageText(page));
      assert.ok(match, page);
      assert.ok(head.startsWith(match[1]!), `${match[1]} is a prefix of HEAD ${head}`);
    }
  });

  it('a second run finds every page fresh and asks the model nothing', async () => {
    assert.deepEqual(await repo.engine.wiki.check(), []);
    const asked = server.requests.length;
    const again = await repo.engine.executor.run(repo.engine.catalog.get('wiki')!, {});
    assert.equal(again.status, 'success', again.log.error);
    assert.equal(server.requests.length, asked, server.requests.slice(asked).map(pageOfRequest).join(', '));
  });
});
