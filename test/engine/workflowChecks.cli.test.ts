import { strict as assert } from 'node:assert';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

/** Load-time and run-time exactness, through the built CLI against the scripted server. */
describe('workflow checks on the CLI (scripted server)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const env = (extra: Record<string, string> = {}) => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model', ...extra });
  const write = (path: string, text: string) => {
    mkdirSync(join(ws.root, path, '..'), { recursive: true });
    writeFileSync(join(ws.root, path), text);
    return join(ws.root, path);
  };
  /** `validate` output lines as `line:col: message` for one file. */
  const problems = (stdout: string, file: string) =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith(file))
      .map((l) => l.slice(file.length + 1));

  beforeEach(async () => {
    server = new OpenAiTestServer(() => ({ text: 'model answer' }));
    await server.start();
    ws = tempWorkspace({ 'present.txt': 'PRESENT-CONTENT\n', '.env': 'TOKEN=hidden-value\n', 'data.json': '{"items":[{"name":"a"}]}' });
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('validate prints every problem in one pass, schema and reference errors together, each at its key', async () => {
    const file = write(
      'many.yaml',
      `title: Many problems
input_variables:
  - name: topic
tool_chain:
  - id: first
    tool: read_file
    input: {path: "{topic}"}
    retires: 3
    output_variable: first
  - id: second
    tool: read_file
    condition: nope > 1
    input: {path: "{first}"}
    output_variable: second
  - id: third
    tool: read_file
    for_each: "{missing_list}"
    input: {path: "{item}"}
    select: "$.files["
    output_variable: third
  - id: fourth
    tool: red_file
    input: {path: x}
`,
    );
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1, result.stderr);
    const lines = problems(result.stdout, file);
    const expect = (line: number, pattern: RegExp) =>
      assert.ok(
        lines.some((l) => l.startsWith(`${line}:`) && pattern.test(l)),
        `expected line ${line} ${pattern}; got:\n${lines.join('\n')}`,
      );
    expect(8, /unknown field "retires"/);
    expect(12, /tool_chain\[1\]\.condition: \{nope\} is not defined/);
    expect(17, /tool_chain\[2\]\.for_each: \{missing_list\} is not defined/);
    expect(19, /tool_chain\[2\]\.select: "\$\.files\[" is not a valid JSONPath: unclosed "\["/);
    expect(22, /unknown tool "red_file"/);
    assert.ok(!lines.some((l) => /\{first\} is not defined/.test(l)), 'the invalid step still defines its output');
    assert.equal(server.requests.length, 0);
  });

  it('a fallback step that takes condition or for_each is a load error at that key', async () => {
    const file = write(
      'fallback.yaml',
      `title: Fallback keys
tool_chain:
  - tool: read_file
    input: {path: missing.txt}
    on_error: fallback
    fallback:
      tool: read_file
      condition: "true"
      for_each: "{{a}}"
      input: {path: present.txt}
`,
    );
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1);
    const lines = problems(result.stdout, file);
    assert.ok(
      lines.some((l) => /^8:\d+: tool_chain\[0\]\.fallback\.condition: a fallback step .* does not take "condition"/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /^9:\d+: tool_chain\[0\]\.fallback\.for_each: a fallback step .* does not take "for_each"/.test(l)),
      lines.join('\n'),
    );
  });

  it('a for_each concurrency above max_concurrency is a load warning; the file still runs', async () => {
    const file = write(
      'wide.yaml',
      `title: Wide
tool_chain:
  - tool: read_file
    for_each: "{{\\"a\\"}}"
    concurrency: 10
    input: {path: present.txt}
`,
    );
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 0, result.stdout);
    assert.match(
      result.stdout,
      /wide\.yaml:5:\d+: warning: tool_chain\[0\]\.concurrency: concurrency 10 is capped by the prompt's max_concurrency \(4, the default\)/,
    );
  });

  it('prompts that call each other in a cycle are a load error naming the cycle; nothing is sent', async () => {
    write('.codewiki/prompts/ping.yaml', 'title: Ping\ntool_chain:\n  - tool: pong\n');
    write('.codewiki/prompts/pong.yaml', 'title: Pong\ntool_chain:\n  - id: back\n    tool: ping\n');
    const validated = await runCli(['validate', join(ws.root, '.codewiki/prompts/ping.yaml'), '--workspace', ws.root]);
    assert.equal(validated.code, 1);
    assert.match(validated.stdout, /ping\.yaml:3:\d+: tool_chain\[0\]\.tool: action prompts call each other in a cycle: ping → pong → ping/);
    const run = await runCli(['run', 'pong', '--workspace', ws.root], { env: env() });
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /pong → ping → pong|ping → pong → ping/);
    assert.equal(server.requests.length, 0);
  });

  it('a select that matches nothing warns on the step instead of passing a silent empty value', async () => {
    const file = write(
      'select.yaml',
      `title: Select
tool_chain:
  - id: read
    tool: read_file
    input: {path: present.txt}
    select: "$.no_such_field"
    output_variable: picked
output: "[{picked}]"
`,
    );
    const log = join(ws.root, 'log.json');
    const result = await runCli(['run', file, '--workspace', ws.root, '--log', log], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /! step "read": select "\$\.no_such_field" matched nothing in the output of read_file/);
    const step = JSON.parse(readFileSync(log, 'utf8')).steps[0];
    assert.match(step.warnings.join('\n'), /matched nothing/);
  });

  it('the run log keeps the failed step’s input and records the fallback’s own input beside it', async () => {
    const file = write(
      'recover.yaml',
      `title: Recover
tool_chain:
  - id: read
    tool: read_file
    input: {path: missing.txt}
    on_error: fallback
    fallback:
      id: read_other
      tool: read_file
      input: {path: present.txt}
    output_variable: text
output: "{text}"
`,
    );
    const log = join(ws.root, 'log.json');
    const result = await runCli(['run', file, '--workspace', ws.root, '--log', log], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    const step = JSON.parse(readFileSync(log, 'utf8')).steps[0];
    assert.deepEqual(step.input, { path: 'missing.txt' });
    assert.equal(step.recovered_by, 'fallback');
    assert.equal(step.fallback.length, 1);
    assert.deepEqual([step.fallback[0].id, step.fallback[0].tool, step.fallback[0].status], ['read_other', 'read_file', 'success']);
    assert.deepEqual(step.fallback[0].input, { path: 'present.txt' });
  });

  it('a wrong value for a nested prompt names the prompt, the input and the expected type', async () => {
    write(
      '.codewiki/prompts/count-words.yaml',
      `title: Count words
input_variables:
  - name: text
  - name: limit
    type: number
tool_chain:
  - tool: summarize_llm_tool
    input: {content: "{text}", max_words: "{limit}"}
`,
    );
    const file = write(
      'caller.yaml',
      `title: Caller
tool_chain:
  - tool: count-words
    input: {text: hello, limit: ten}
`,
    );
    const result = await runCli(['run', file, '--workspace', ws.root], { env: env() });
    assert.notEqual(result.code, 0);
    assert.match(result.stderr, /nested prompt "count-words": input "limit" expects a number, got "ten"/);
    assert.equal(server.requests.length, 0);
  });

  it('a secret file is refused with a setting that exists, and that setting allows it', async () => {
    const file = write('secret.yaml', 'title: Secret\ntool_chain:\n  - tool: read_file\n    input: {path: .env}\n    output_variable: env\noutput: "{env}"\n');
    const refused = await runCli(['run', file, '--workspace', ws.root], { env: env() });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /may contain secrets .* to allow it, add a pattern for it to CODEWIKI_ALLOW_SECRET_FILES/);
    const allowed = await runCli(['run', file, '--workspace', ws.root], { env: env({ CODEWIKI_ALLOW_SECRET_FILES: '.env' }) });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /TOKEN=hidden-value/);
  });
});
