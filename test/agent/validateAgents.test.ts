import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { problemsByFile } from '../../src/core/session/promptSummaries';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';

const BUILTIN = join(__dirname, '..', '..', 'action-prompts');
const BROKEN =
  'name: finder\ndescription: Finds things.\ninputs:\n  - name: q\n    type: string\n    description: what\nsystem: "Find {q}"\ntools: [read_file, reed_file]\n';

/** Agent definitions get what action prompts get: `codewiki validate` and the Problems panel, at file:line:col. */
describe('agent definitions are validated like action prompts', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace({ '.codewiki/agents/finder.yaml': BROKEN });
  });
  afterEach(() => ws.cleanup());

  it('codewiki validate reports an agent definition’s problems at file:line:col and exits 1', async () => {
    const file = join(ws.root, '.codewiki/agents/finder.yaml');
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /finder\.yaml:8:20: tools\[1\]: unknown tool "reed_file"/);
    const builtin = await runCli(['validate', join(__dirname, '..', '..', 'agents', 'codebase_investigator.yaml')]);
    assert.equal(builtin.code, 0, builtin.stdout);
  });

  it('a broken workspace definition is among the problems the extension publishes', async () => {
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: NO_MODELS });
    const problems = problemsByFile([...engine.catalog.entries(), ...engine.agents.entries()]);
    const [file, found] = [...problems].find(([path]) => path.endsWith('finder.yaml'))!;
    assert.ok(file);
    assert.deepEqual(
      found.map((d) => [d.line, d.column, d.field]),
      [[8, 20, 'tools[1]']],
    );
  });
});
