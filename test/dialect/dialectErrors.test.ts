import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { runCli } from '../support/runCli';

/** Where each problem is reported, as `line:col field`, with a fragment of its message. */
function problems(stdout: string, file: string): Array<[string, string]> {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith(`${file}:`))
    .map((line) => {
      const [, where, field, message] = /^:(\d+:\d+):(?: warning:)? (\S+): (.*)$/.exec(line.slice(file.length))!;
      return [`${where} ${field}`, message];
    });
}

function assertProblems(actual: Array<[string, string]>, expected: Array<[string, RegExp]>): void {
  assert.deepEqual(
    actual.map(([where]) => where),
    expected.map(([where]) => where),
    actual.map((p) => p.join(' ')).join('\n'),
  );
  actual.forEach(([where, message], i) => assert.match(message, expected[i][1], where));
}

/**
 * Errors in seed-002 files point at the line and column in the file as written, in its own
 * field names, whether the translator or CodeWiki's compiler finds them.
 */
describe('seed 002 dialect: errors point into the file as written (codewiki validate)', () => {
  const FILES: Record<string, string> = {
    // Constructs without a CodeWiki equivalent, and references the translator cannot resolve.
    'untranslatable.yaml': [
      'name: untranslatable', //                                         1
      'triggers: [daily]', //                                            2
      'input:', //                                                       3
      '  topic: strin', //                                               4
      'steps:', //                                                       5
      '  - id: search', //                                               6
      '    tool: search_text', //                                        7
      '    params:', //                                                  8
      '      query: "about ${input.topik} and ${steps.search.output[*].path}"', // 9
      '    output:', //                                                  10
      '      as: hits', //                                               11
      '      format: json', //                                           12
      '    condition: "${steps.nothere.output.size > 0}"', //            13
      '  - id: read', //                                                 14
      '    tool: read_file', //                                          15
      '    params:', //                                                  16
      '      path: "${steps.search.error}"', //                          17
      'error_handling:', //                                              18
      '  strategy: fallback', //                                         19
      '  fallback:', //                                                  20
      '    - condition: "${steps.search.output.size == 0}"', //          21
      '      tool: list_files', //                                       22
      '      retries: 3', //                                             23
      '',
    ].join('\n'),
    // Translates cleanly; CodeWiki's compiler finds these, reported at the seed fields.
    'compiled.yaml': [
      'name: compiled',
      'input:',
      '  topic: string',
      'steps:',
      '  - id: search',
      '    tool: web_search', //                                         6
      '    params:',
      '      query: "${input.topic}"',
      '  - id: read', //                                                 9
      '    tool: read_file',
      '    params:',
      '      path: "${steps.later.output}"',
      '      lines: 10', //                                              13
      '  - id: later',
      '    tool: read_file',
      '    params:',
      '      path: "${steps.read.output}"',
      '',
    ].join('\n'),
    // The schema's errors, on fields the translator renamed.
    'schema.yaml': [
      'name: schema',
      'steps:',
      '  - id: search',
      '    tool: search_text',
      '    params:',
      '      query: "${input.topic}"',
      '    output:',
      '      as: two words', //                                          8
      '    error_handling:',
      '      strategy: retry',
      '      attempts: 20', //                                           11
      '',
    ].join('\n'),
  };
  let ws: ReturnType<typeof tempWorkspace>;
  before(() => (ws = tempWorkspace(FILES)));
  after(() => ws.cleanup());
  const validate = async (name: string) => {
    const file = join(ws.root, name);
    const result = await runCli(['validate', file, '--workspace', ws.root]);
    assert.equal(result.code, 1, result.stdout);
    return problems(result.stdout, file);
  };

  it('names each construct without an equivalent and each unresolvable reference, at its own column', async () => {
    assertProblems(await validate('untranslatable.yaml'), [
      ['2:1 triggers', /"triggers" at the top of a seed-002 chain has no CodeWiki equivalent/],
      ['4:10 input.topic', /unknown input type "strin"/],
      ['9:21 steps[0].params.query', /"\$\{input\.topik\}": "topik" is not declared under input: \(declared: topic\)/],
      ['9:40 steps[0].params.query', /"\[\*\]" has no CodeWiki equivalent in a reference; pick the field with the producing step's output\.select/],
      ['12:7 steps[0].output.format', /"format" in a step's output has no CodeWiki equivalent/],
      ['13:19 steps[0].condition', /there is no step "nothere" \(steps: search, read\)/],
      ['17:14 steps[1].params.path', /a step's error can be read only in its own fallback/],
      ['21:18 error_handling.fallback[0].condition', /a fallback's condition must be "\$\{steps\.<id>\.error\}"/],
      ['23:7 error_handling.fallback[0].retries', /"retries" in a fallback has no CodeWiki equivalent/],
    ]);
  });

  it("reports the compiler's problems (unknown tool, unknown parameter, cycle) at the seed's lines", async () => {
    assertProblems(await validate('compiled.yaml'), [
      ['6:11 steps[0].tool', /unknown tool "web_search"/],
      ['13:7 steps[1].params.lines', /"read_file" has no parameter "lines"/],
      ['9:5 steps[1]', /cycle: read → later → read/],
    ]);
  });

  it("reports the schema's problems at the seed fields they came from", async () => {
    assertProblems(await validate('schema.yaml'), [
      ['8:11 steps[0].output.as', /must be a name of letters, digits and _/],
      ['11:17 steps[0].error_handling.attempts', /<=\s*10/],
    ]);
  });
});
