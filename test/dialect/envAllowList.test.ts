import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

const ROOT = join(__dirname, '..', '..');

const GREET = [
  'name: greet',
  'input:',
  '  who: string',
  'steps:',
  '  - id: ask',
  '    tool: summarize_llm_tool',
  '    params:',
  '      content: "Greet ${input.who} from ${env.CW_DIALECT_GREETER} at {braces}"',
  '    output:',
  '      as: greeting',
  '',
].join('\n');

/**
 * `${env.X}` reads only names the user allowed (codewiki.dialect.allowedEnv; CODEWIKI_ALLOWED_ENV
 * on the CLI): a chain file from a repository must not read the user's environment by naming it.
 */
describe('seed 002 dialect: ${env.X} and the allow-list', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let file: string;
  beforeEach(() => {
    ws = tempWorkspace({ 'greet.yaml': GREET });
    file = join(ws.root, 'greet.yaml');
  });
  afterEach(() => ws.cleanup());

  it('is a load error at the reference when the name is not allowed, even though it is set', async () => {
    const result = await runCli(['validate', file, '--workspace', ws.root], { env: { CW_DIALECT_GREETER: 'the-greeter' } });
    assert.equal(result.code, 1);
    assert.equal(
      result.stdout.trim(),
      `${file}:8:41: steps[0].params.content: "\${env.CW_DIALECT_GREETER}": the environment variable CW_DIALECT_GREETER is not in the allow-list; ` +
        'add it to the user setting codewiki.dialect.allowedEnv (CLI: CODEWIKI_ALLOWED_ENV=CW_DIALECT_GREETER) if this chain may read it',
    );
    assert.doesNotMatch(result.stdout, /the-greeter/, 'the value is never shown');
  });

  it('names what is allowed when another name is', async () => {
    const result = await runCli(['validate', file, '--workspace', ws.root], { env: { CODEWIKI_ALLOWED_ENV: 'HOME, USER', CW_DIALECT_GREETER: 'x' } });
    assert.equal(result.code, 1);
    assert.match(result.stdout, /:8:41: .*CW_DIALECT_GREETER is not in the allow-list; .*\(allowed now: HOME, USER\)/);
  });

  it('is a load error when the name is allowed but not set', async () => {
    const result = await runCli(['validate', file, '--workspace', ws.root], { env: { CODEWIKI_ALLOWED_ENV: 'CW_DIALECT_GREETER' } });
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /:8:41: steps\[0\]\.params\.content: "\$\{env\.CW_DIALECT_GREETER\}": the environment variable CW_DIALECT_GREETER is allowed but not set/,
    );
  });

  it('reads an allowed name at load time; literal braces around it stay literal', async () => {
    const server = new OpenAiTestServer([{ text: 'Hello, Ada!' }]);
    await server.start();
    try {
      const env = {
        CODEWIKI_ALLOWED_ENV: 'CW_DIALECT_GREETER',
        CW_DIALECT_GREETER: 'the {greeter}',
        CODEWIKI_BASE_URL: server.url,
        CODEWIKI_MODEL: 'main-model',
      };
      const result = await runCli(['run', file, '--workspace', ws.root, '--input', 'who=Ada'], { env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, 'Hello, Ada!\n');
      assert.match(server.requests[0].promptText, /Greet Ada from the \{greeter\} at \{braces\}/);
    } finally {
      await server.close();
    }
  });

  it('the allow-list is a user setting only: a repository cannot list names for its own chains', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const setting = manifest.contributes.configuration.properties['codewiki.dialect.allowedEnv'];
    assert.equal(setting.scope, 'application');
    assert.deepEqual(setting.default, []);
  });

  it('in the engine: a workspace chain loads only when the engine is given the allow-list (the extension passes the user setting)', async () => {
    mkdirSync(join(ws.root, '.codewiki', 'prompts'), { recursive: true });
    writeFileSync(join(ws.root, '.codewiki', 'prompts', 'greet.yaml'), GREET);
    const env = { CW_DIALECT_GREETER: 'the-greeter' };
    const config = { workspaceRoot: ws.root, builtinPromptsDir: join(ROOT, 'action-prompts'), models: NO_MODELS };

    const closed = await createCodewikiEngine(config);
    const rejected = closed.catalog.entry('greet')!;
    assert.equal(rejected.prompt, undefined);
    assert.match(rejected.diagnostics[0].message, /CW_DIALECT_GREETER is not in the allow-list/);
    assert.equal(rejected.diagnostics[0].line, 8);

    const open = await createCodewikiEngine({ ...config, dialect: { allowedEnv: ['CW_DIALECT_GREETER'], env } });
    const prompt = open.catalog.get('greet');
    assert.ok(prompt, JSON.stringify(open.catalog.entry('greet')?.diagnostics));
    assert.deepEqual(prompt.steps[0].input, { content: 'Greet {who} from the-greeter at {{braces}}' });
  });
});
