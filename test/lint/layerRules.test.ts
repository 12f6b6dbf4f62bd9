import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import type { ESLint } from 'eslint';

/**
 * The layer rules in eslint.config.mjs, proven to fire: each case lints a one-line source as if it lived at the
 * given path (nothing is written), with the project's real configuration. `npm test` runs `npm run lint` on the
 * whole tree; this file makes sure the rules behind it are not silently inert.
 */
describe('lint: the layers are enforced', function () {
  this.timeout(120_000);
  let eslint: ESLint;

  before(async () => {
    const { ESLint: ESLintClass } = (await import('eslint')) as typeof import('eslint');
    eslint = new ESLintClass({ cwd: join(__dirname, '..', '..') });
  });

  async function problems(path: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: join(__dirname, '..', '..', path) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
  }

  const refused: Array<[string, string, RegExp]> = [
    ['src/core/engine/x.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n", /never imports vscode/],
    ['src/core/engine/x.ts', "import { activate } from '../../extension/extension';\nexport const a = activate;\n", /adapters in src\/extension/],
    ['src/core/agent/x.ts', "import { main } from '../../cli/main';\nexport const m = main;\n", /the CLI depends on the core/],
    ['src/core/agent/x.ts', "import { md } from '../../../webview-ui/src/markdownParser';\nexport const m = md;\n", /never imports the webview/],
    [
      'webview-ui/src/x.ts',
      "import { createChatModel } from '../../src/core/llm/createChatModel';\nexport const c = createChatModel;\n",
      /imports only src\/shared/,
    ],
    ['webview-ui/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", /runs in a browser/],
    ['src/shared/x.ts', "import { streamChat } from '../core/llm/streamChat';\nexport const s = streamChat;\n", /types \(import type\), never its code/],
  ];

  for (const [path, source, message] of refused) {
    it(`refuses in ${path}: ${source.split('\n')[0]}`, async () => {
      const found = await problems(path, source);
      assert.ok(
        found.some((p) => p.startsWith('@typescript-eslint/no-restricted-imports') && message.test(p)),
        found.join('\n') || 'no problem reported',
      );
    });
  }

  it('allows what the layers permit: types from the core in src/shared, src/shared in the webview, the core in the extension', async () => {
    assert.deepEqual(await problems('src/shared/x.ts', "import type { TokenUsage } from '../core/llm/usage';\nexport type T = TokenUsage;\n"), []);
    assert.deepEqual(
      await problems('webview-ui/src/x.ts', "import type { HostToWebview } from '../../src/shared/protocol';\nexport type H = HostToWebview;\n"),
      [],
    );
    assert.deepEqual(
      await problems(
        'src/extension/x.ts',
        "import * as vscode from 'vscode';\nimport { streamChat } from '../core/llm/streamChat';\nexport const both = [vscode, streamChat];\n",
      ),
      [],
    );
  });
});

/**
 * The floor plan of src/core (lint/coreTiers.mjs, docs/architecture.md): each tier imports only itself and the tiers
 * below, every file is in a tier, and imports never run in a cycle, type-only ones included. Sources are linted as if
 * they lived at the given path, so only the file of a cycle's far end must exist on disk.
 */
describe('lint: the floor plan of src/core is enforced', function () {
  this.timeout(120_000);
  const root = join(__dirname, '..', '..');
  let eslint: ESLint;

  before(async () => {
    const { ESLint: ESLintClass } = (await import('eslint')) as typeof import('eslint');
    eslint = new ESLintClass({ cwd: root });
  });

  async function problems(path: string, source: string): Promise<string[]> {
    const [result] = await eslint.lintText(source, { filePath: join(root, path) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
  }

  const upward: Array<[string, string, RegExp]> = [
    [
      'src/core/agent/x.ts',
      "import { subagentExclusion } from '../subagents/agentFilter';\nexport const s = subagentExclusion;\n",
      /tier 3 \(programs\) may not import tier 4 \(hosts of programs\)/,
    ],
    [
      'src/core/tools/x.ts',
      "import type { ExecutorEvent } from '../engine/executorEvents';\nexport type E = ExecutorEvent;\n",
      /tier 2 \(capabilities\) may not import tier 4 \(hosts of programs\)/,
    ],
    [
      'src/core/llm/x.ts',
      "import type { ToolRuntime } from '../tools/toolRuntime';\nexport type R = ToolRuntime;\n",
      /tier 0 \(ground\) may not import tier 2 \(capabilities\)/,
    ],
    [
      'src/core/yaml/x.ts',
      "import { compileActionPrompt } from '../actionPrompt/compileActionPrompt';\nexport const c = compileActionPrompt;\n",
      /tier 0 \(ground\) may not import tier 3 \(programs\)/,
    ],
    [
      'src/core/subagents/x.ts',
      "import { createAgent } from '../createAgent';\nexport const c = createAgent;\n",
      /tier 4 \(hosts of programs\) may not import tier 5 \(composition\)/,
    ],
    [
      'src/core/codewikiEngine.ts',
      "import { ToolTesterService } from './toolTester/toolTesterService';\nexport const t = ToolTesterService;\n",
      /tier 5 \(composition\) may not import tier 6 \(application\)/,
    ],
    [
      'src/core/values/x.ts',
      "import { renderTemplate } from '../template/renderTemplate';\nexport const r = renderTemplate;\n",
      /tier 1 \(values\) may not import tier 2 \(capabilities\)/,
    ],
    [
      'src/core/engine/x.ts',
      "import type { HostToWebview } from '../../shared/protocol';\nexport type H = HostToWebview;\n",
      /src\/shared\) is the business of tier 6 \(application\)/,
    ],
  ];

  for (const [path, source, message] of upward) {
    it(`refuses an import up the tiers in ${path}: ${source.split('\n')[0]}`, async () => {
      const found = await problems(path, source);
      assert.ok(
        found.some((p) => p.startsWith('import-x/no-restricted-paths') && message.test(p)),
        found.join('\n') || 'no problem reported',
      );
    });
  }

  it('allows imports down the tiers and within one: a host of programs uses a program, the application uses composition and the protocol, capabilities use each other', async () => {
    assert.deepEqual(await problems('src/core/subagents/x.ts', "import { AgentLoop } from '../agent/agentLoop';\nexport const a = AgentLoop;\n"), []);
    assert.deepEqual(
      await problems(
        'src/core/session/x.ts',
        "import type { HostToWebview } from '../../shared/protocol';\nimport { createAgent } from '../createAgent';\nexport type H = HostToWebview;\nexport const c = createAgent;\n",
      ),
      [],
    );
    assert.deepEqual(
      await problems('src/core/codebaseIndex/x.ts', "import { codewikiTool } from '../tools/codewikiTool';\nexport const c = codewikiTool;\n"),
      [],
    );
    assert.deepEqual(await problems('src/core/util/x.ts', "import { abortReason } from './abort';\nexport const a = abortReason;\n"), []);
  });

  it('refuses a file of src/core that is in no tier, in a new folder or directly in src/core, and accepts one in a tier', async () => {
    for (const path of ['src/core/misc/helper.ts', 'src/core/helper.ts']) {
      const found = await problems(path, 'export const x = 1;\n');
      assert.ok(
        found.some((p) => p.startsWith('codewiki/no-unlayered-files') && p.includes(`${path} is in no tier`)),
        found.join('\n') || `nothing reported for ${path}`,
      );
    }
    assert.deepEqual(await problems('src/core/values/helper.ts', 'export const x = 1;\n'), []);
  });

  it('refuses an import that closes a cycle between files, with a value or a type-only import, and names the cycle', async () => {
    const a = 'test/lint/fixtures/halfCycle/a.ts';
    const b = 'test/lint/fixtures/halfCycle/b.ts';
    for (const source of ["import { A } from './a';\nexport const B = `b ${A}`;\n", "import type { A } from './a';\nexport type B = typeof A;\n"]) {
      const found = await problems(b, source);
      assert.ok(
        found.some((p) => p.startsWith('codewiki/no-import-cycles') && p.includes(`Import cycle: ${b} → ${a} → ${b}`)),
        found.join('\n') || `no cycle reported for: ${source}`,
      );
    }
    assert.deepEqual(await problems(b, "export const B = 'b';\n"), [], 'the half on disk is no cycle');
  });

  it('refuses an import that closes a cycle between two folders of one tier, naming the import that runs back', async () => {
    // llm is in the ground tier with util and uses its abort helpers: util may not use llm in return.
    const found = await problems('src/core/util/x.ts', "import { addUsage } from '../llm/usage';\nexport const a = addUsage;\n");
    const cycle = found.find((p) => p.startsWith('codewiki/no-import-cycles'));
    assert.ok(cycle, found.join('\n') || 'no problem reported');
    assert.match(cycle, /Folder cycle in src\/core: util → llm → util \(src\/core\/llm\/\w+\.ts imports src\/core\/util\/\w+\.ts\)/);
    assert.deepEqual(
      found.filter((p) => p.startsWith('import-x/')),
      [],
      'same tier: no zone applies, only the cycle rule',
    );
  });
});
