import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';

/** `${name}` in a CodeWiki template used to load and send "$" plus the value; it is a load error with the fix. */
describe('${…} in a CodeWiki-format template (codewiki validate)', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace({ 'src/a.ts': 'export function createServer() {}\n' })));
  afterEach(() => ws.cleanup());

  const validate = async (yaml: string) => {
    const file = join(ws.root, 'dollar.yaml');
    writeFileSync(file, yaml);
    return { file, result: await runCli(['validate', file, '--workspace', ws.root]) };
  };

  it('reports each ${…} at its own line and column with the CodeWiki spelling; ${{ is literal text; the fixed file is ok', async () => {
    const { file, result } = await validate(
      [
        'title: Dollar habit',
        'input_variables:',
        '  - name: topic',
        'tool_chain:',
        '  - tool: search_text',
        '    input:',
        '      query: "${topic}"',
        '    output_variable: hits',
        '  - tool: summarize_llm_tool',
        '    input:',
        '      content: "Literal ${{braces}} stay; {hits} and ${steps.hits.output.matches}"',
        '    output_variable: summary',
        'output: "${input.topic}: {summary}"',
        '',
      ].join('\n'),
    );
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const lines = result.stdout.trim().split('\n');
    assert.deepEqual(lines, [
      `${file}:7:15: tool_chain[0].input.query: "\${topic}": CodeWiki writes references as {name}, without "$"; write {topic} (as written, "$" would be sent to the model followed by the value)`,
      `${file}:11:54: tool_chain[1].input.content: "\${steps.hits.output.matches}": CodeWiki writes references as {name}, without "$"; write {hits.matches} (as written, "$" would be sent to the model followed by the value)`,
      `${file}:13:10: output: "\${input.topic}": CodeWiki writes references as {name}, without "$"; write {topic} (as written, "$" would be sent to the model followed by the value)`,
    ]);

    const fixed = readFileSync(file, 'utf8')
      .replace('"${topic}"', '"{topic}"')
      .replace(' and ${steps.hits.output.matches}', ' and {hits.matches}')
      .replace('${input.topic}', '{topic}');
    const again = await validate(fixed);
    assert.equal(again.result.code, 0, again.result.stdout);
    assert.match(again.result.stdout, /dollar\.yaml: ok/);
  });

  it('also in conditions, for_each, fallback steps, llm_tools and the final prompt', async () => {
    const { file, result } = await validate(
      [
        'title: Everywhere',
        'input_variables:',
        '  - name: q',
        'llm_tools:',
        '  - name: ask',
        '    description: Ask',
        '    human: "Answer ${q}"',
        'tool_chain:',
        '  - tool: search_text',
        '    input: { query: "{q}" }',
        '    condition: "${q}"',
        '    on_error: fallback',
        '    fallback:',
        '      - tool: list_files',
        '        input: { path: "${q}" }',
        '    output_variable: hits',
        '  - tool: ask',
        '    for_each: "${hits.matches}"',
        '    output_variable: answers',
        'llm_prompt_template:',
        '  human: "Summarise ${answers}"',
        '',
      ].join('\n'),
    );
    assert.equal(result.code, 1);
    const where = result.stdout
      .trim()
      .split('\n')
      .map((line) => /^.*:(\d+):(\d+): (\S+):/.exec(line.slice(file.length))!.slice(1).join(' '));
    assert.deepEqual(where, [
      '7 20 llm_tools[0].human',
      '11 17 tool_chain[0].condition',
      '15 25 tool_chain[0].fallback[0].input.path',
      '18 16 tool_chain[1].for_each',
      '21 21 llm_prompt_template.human',
    ]);
  });
});
