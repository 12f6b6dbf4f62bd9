import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveRunInputs } from '../../src/core/actionPrompt/runInputs';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { problemsByFile, promptSummaries } from '../../src/core/session/promptSummaries';
import { previewToolPrompt } from '../../src/core/toolTester/previewToolPrompt';
import type { PreviewableTool } from '../../src/core/tools/workspace-write';
import { suggestPaths } from '../../src/core/workspace/pathSuggestions';
import { tempWorkspace } from '../support/engineBuilders';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');
const prompt = (title: string) => `title: ${title}\ninput_variables:\n  - name: where\n    type: path\nllm_prompt_template:\n  human: "Look at {where}"\n`;
const agent = (name: string) => `name: ${name}\ndescription: Finds things\nsystem: "Find it."\ntools: [search_text]\n`;

/**
 * The engine of a multi-root workspace (issue 22): every folder's prompts, agent definitions and files,
 * paths named by folder, and never silently the first folder.
 */
describe('the engine over a multi-root workspace', () => {
  let app: ReturnType<typeof tempWorkspace>;
  let lib: ReturnType<typeof tempWorkspace>;
  let engine: CodewikiEngine;

  beforeEach(async () => {
    app = tempWorkspace({
      '.codewiki/prompts/app-review.yaml': prompt('App review'),
      '.codewiki/prompts/shared.yaml': prompt('Shared from app'),
      '.codewiki/agents/app-finder.yaml': agent('app_finder'),
      'src/main.ts': 'export function startApp() {\n  return 1;\n}\n',
    });
    lib = tempWorkspace({
      '.codewiki/prompts/lib-review.yaml': prompt('Lib review'),
      '.codewiki/prompts/shared.yaml': prompt('Shared from lib'),
      '.codewiki/agents/lib-finder.yaml': agent('lib_finder'),
      'team-prompts/team-check.yaml': prompt('Team check'),
      'src/parser.ts':
        'export function parseLibraryManifest(text: string) {\n  return text.trim();\n}\n\nexport function load(text: string) {\n  // reads the library manifest of the lib folder\n  return parseLibraryManifest(text);\n}\n',
    });
    engine = await createCodewikiEngine({
      workspaceRoots: [
        { path: app.root, name: 'app' },
        { path: lib.root, name: 'lib' },
      ],
      builtinPromptsDir: BUILTIN,
      promptFolders: ['team-prompts'],
      models: NO_MODELS,
    });
  });

  afterEach(() => {
    app.cleanup();
    lib.cleanup();
  });

  it('loads action prompts and agent definitions from every folder, and codewiki.promptFolders from the folder that has it', async () => {
    const workspaceIds = engine.catalog
      .entries()
      .filter((e) => e.source === 'workspace')
      .map((e) => e.id);
    assert.deepEqual(workspaceIds, ['app-review', 'lib-review', 'shared', 'team-check']);
    assert.ok(engine.catalog.get('lib-review'), 'valid and runnable');
    assert.ok(engine.catalog.get('team-check'));
    assert.ok(engine.agents.get('app_finder') && engine.agents.get('lib_finder'));
    assert.ok(engine.agentRegistry.has('lib_finder'), "the second folder's agent is a sub-agent tool");
    assert.deepEqual(engine.warnings, [], 'team-prompts is missing in app, which is no problem');
  });

  it('a prompt id two folders define: the first folder wins, the second file has an error naming both, in the Problems panel and as you type', async () => {
    assert.equal(engine.catalog.entry('shared')?.title, 'Shared from app');
    const libShared = join(lib.root, '.codewiki/prompts/shared.yaml');
    const appShared = engine.catalog.entry('shared')!.file;
    const [duplicate] = engine.catalog.duplicateEntries();
    assert.equal(duplicate?.file, libShared);
    const problems = problemsByFile([...engine.catalog.entries(), ...engine.catalog.duplicateEntries()]).get(libShared) ?? [];
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.severity, 'error');
    assert.ok(problems[0]!.message.includes(appShared) && problems[0]!.message.includes(libShared), problems[0]!.message);
    // The editor's live check (and codewiki validate) of the second file says the same; the first file is clean.
    const live = engine.catalog.validateText(readFileSync(libShared, 'utf8'), libShared);
    assert.match(live[0]?.message ?? '', /already defined in .*shared\.yaml/);
    assert.deepEqual(engine.catalog.validateText(readFileSync(appShared, 'utf8'), appShared), []);
  });

  it("names the second folder's files lib/… in prompt problems, path inputs and path suggestions", async () => {
    writeFileSync(join(lib.root, '.codewiki/prompts/broken.yaml'), 'title: Broken\ntool_chain:\n  - tool: no_such_tool\n');
    const reloaded = await createCodewikiEngine({
      workspaceRoots: [
        { path: app.root, name: 'app' },
        { path: lib.root, name: 'lib' },
      ],
      builtinPromptsDir: BUILTIN,
      models: NO_MODELS,
    });
    const summary = promptSummaries(reloaded.catalog.entries(), reloaded.workspace).find((s) => s.id === 'broken');
    assert.equal(summary?.errorAt?.path, 'lib/.codewiki/prompts/broken.yaml');
    assert.match(summary?.error ?? '', /^lib\/\.codewiki\/prompts\/broken\.yaml:3:/);

    const inputs = await resolveRunInputs(engine.catalog.get('lib-review')!, { where: 'lib/src' }, engine.workspace);
    assert.deepEqual(inputs, { where: 'lib/src' }, 'the folder stays in the path the steps receive');
    assert.deepEqual(await suggestPaths(engine.workspace, 'l'), ['lib/']);
    assert.deepEqual(await suggestPaths(engine.workspace, 'lib/s'), ['lib/src/']);
    assert.deepEqual(await suggestPaths(engine.workspace, 'lib/src/'), ['lib/src/parser.ts']);
  });

  it("the code index covers every folder: find_symbol and search_code answer with lib/… paths and that file's lines", async () => {
    const found = (await engine.registry.get('find_symbol')!.tool.invoke({ name: 'parseLibraryManifest' })) as {
      matches: Array<{ path: string; line: number }>;
    };
    assert.deepEqual(
      found.matches.map((m) => [m.path, m.line]),
      [['lib/src/parser.ts', 1]],
    );
    const hits = (await engine.registry.get('search_code')!.tool.invoke({ query: 'library manifest of the lib folder' })) as {
      hits: Array<{ path: string; lines: Array<{ text: string }> }>;
    };
    const hit = hits.hits.find((h) => h.path === 'lib/src/parser.ts');
    assert.ok(hit, JSON.stringify(hits.hits.map((h) => h.path)));
    assert.ok(
      hit.lines.some((l) => l.text.includes('reads the library manifest')),
      `its best lines are read from the lib folder: ${JSON.stringify(hit.lines)}`,
    );
  });

  it('the agent writes lib/… into the folder lib, and its system prompt says how paths name the folders', async () => {
    const write = engine.agentRegistry.get('write_file')!.tool as PreviewableTool;
    const prepared = await write.prepare({ path: 'lib/notes/new.md', content: 'hello' });
    assert.match((prepared.preview as { diff: string }).diff, /\+\+\+ b\/lib\/notes\/new\.md/);
    await prepared.apply();
    assert.equal(readFileSync(join(lib.root, 'notes/new.md'), 'utf8'), 'hello');
    assert.equal(existsSync(join(app.root, 'lib')), false, 'not silently in the first folder');

    const preview = await previewToolPrompt({ registry: engine.agentRegistry, modelName: 'test', protocol: 'native', workspace: engine.workspace });
    assert.match(
      preview.systemPrompt,
      /The workspace has 2 folders\. Paths in the first, "app", are relative to it .*paths in the others begin with the folder: lib\//,
    );
    assert.match(preview.systemPrompt, /\n {2}lib\/\n/, 'the layout lists the second folder');
  });

  it("the CLI's one folder (workspaceRoot) works as before", async () => {
    const single = await createCodewikiEngine({ workspaceRoot: lib.root, builtinPromptsDir: BUILTIN, models: NO_MODELS });
    assert.deepEqual(single.workspace.roots.length, 1);
    assert.ok(single.catalog.get('shared'));
    assert.deepEqual(single.catalog.duplicateEntries(), []);
    const preview = await previewToolPrompt({ registry: single.agentRegistry, modelName: 'test', protocol: 'native', workspace: single.workspace });
    assert.match(preview.systemPrompt, /Paths are relative to the workspace root\./);
  });
});
