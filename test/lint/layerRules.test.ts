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
    ['webview-ui/src/x.ts', "import { createChatModel } from '../../src/core/llm/createChatModel';\nexport const c = createChatModel;\n", /imports only src\/shared/],
    ['webview-ui/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n", /runs in a browser/],
    ['src/shared/x.ts', "import { streamChat } from '../core/llm/streamChat';\nexport const s = streamChat;\n", /types \(import type\), never its code/],
  ];

  for (const [path, source, message] of refused) {
    it(`refuses in ${path}: ${source.split('\n')[0]}`, async () => {
      const found = await problems(path, source);
      assert.ok(found.some((p) => p.startsWith('@typescript-eslint/no-restricted-imports') && message.test(p)), found.join('\n') || 'no problem reported');
    });
  }

  it('allows what the layers permit: types from the core in src/shared, src/shared in the webview, the core in the extension', async () => {
    assert.deepEqual(await problems('src/shared/x.ts', "import type { TokenUsage } from '../core/llm/usage';\nexport type T = TokenUsage;\n"), []);
    assert.deepEqual(await problems('webview-ui/src/x.ts', "import type { HostToWebview } from '../../src/shared/protocol';\nexport type H = HostToWebview;\n"), []);
    assert.deepEqual(await problems('src/extension/x.ts', "import * as vscode from 'vscode';\nimport { streamChat } from '../core/llm/streamChat';\nexport const both = [vscode, streamChat];\n"), []);
  });
});
