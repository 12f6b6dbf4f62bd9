import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../../src/core/yaml/diagnostics';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { tempWorkspace } from '../support/engineBuilders';
import { BUILTIN } from './agentHarness';

/** A valid definition; tests break one line of it at a time. */
const GOOD = [
  'name: finder', // 1
  'description: Finds things', // 2
  'inputs:', // 3
  '  - name: topic', // 4
  '    type: string', // 5
  '    description: What to find', // 6
  'system: "Find {topic} in the code."', // 7
  'tools: [search_text, read_file]', // 8
  'max_iterations: 4', // 9
].join('\n');

const FILE = join('.codewiki', 'agents', 'finder.yaml');

describe('agent definitions: loading', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  afterEach(() => ws?.cleanup());

  async function engineWith(files: Record<string, string>, trusted = true): Promise<CodewikiEngine> {
    ws = tempWorkspace(files);
    return createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: NO_MODELS, loadWorkspacePrompts: trusted });
  }

  /** The problems of the one workspace file that failed. */
  async function problemsOf(yaml: string): Promise<Diagnostic[]> {
    const engine = await engineWith({ [FILE]: yaml });
    const entry = engine.agents.entries().find((e) => e.source === 'workspace');
    assert.ok(entry, 'the file is listed');
    assert.equal(entry.definition, undefined, 'an invalid file is not loaded');
    assert.ok(!engine.agentRegistry.has('finder'), 'nor registered as a tool');
    return entry.diagnostics;
  }

  async function onlyProblem(yaml: string): Promise<Diagnostic> {
    const errors = (await problemsOf(yaml)).filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors, null, 2));
    return errors[0]!;
  }

  const replaceLine = (line: number, text: string) =>
    GOOD.split('\n')
      .map((l, i) => (i === line - 1 ? text : l))
      .join('\n');

  it('the built-in codebase_investigator loads as a read-only think tool', async () => {
    const engine = await engineWith({});
    const definition = engine.agents.get('codebase_investigator');
    assert.ok(definition, JSON.stringify(engine.agents.entries(), null, 2));
    assert.equal(definition.source, 'builtin');
    assert.deepEqual(engine.agents.entries()[0]!.diagnostics, []);
    assert.deepEqual(definition.tools, ['list_files', 'search_text', 'read_file', 'get_file_summaries']);
    assert.deepEqual(
      definition.inputs.map((i) => [i.name, i.type, i.required]),
      [
        ['question', 'string', true],
        ['focus_path', 'string', false],
      ],
    );
    assert.match(definition.system, /path:line/);
    const entry = engine.agentRegistry.get('codebase_investigator')!;
    assert.deepEqual([entry.metadata.kind, entry.metadata.agentCallable], ['think', true]);
    assert.ok(!engine.registry.has('codebase_investigator'), 'action prompts cannot name a sub-agent as a step');
    assert.deepEqual(engine.warnings, []);
  });

  it('a workspace definition loads in a trusted workspace only', async () => {
    const trusted = await engineWith({ [FILE]: GOOD });
    const definition = trusted.agents.get('finder')!;
    assert.equal(definition.source, 'workspace');
    assert.equal(definition.maxIterations, 4);
    assert.deepEqual(definition.inputs, [{ name: 'topic', type: 'string', description: 'What to find', required: true }]);
    assert.ok(trusted.agentRegistry.has('finder'));
    ws.cleanup();

    const restricted = await engineWith({ [FILE]: GOOD }, false);
    assert.equal(restricted.agents.get('finder'), undefined);
    assert.ok(!restricted.agentRegistry.has('finder'));
    assert.ok(restricted.agents.get('codebase_investigator'), 'built-in definitions still load');
  });

  it('reports file:line:col: field: message, and the engine warns about a skipped file', async () => {
    const engine = await engineWith({ [FILE]: replaceLine(8, 'tools: [search_text, reed_file]') });
    const [problem] = engine.agents.entries().find((e) => e.source === 'workspace')!.diagnostics;
    assert.match(formatDiagnostic(problem!), /finder\.yaml:8:22: tools\[1\]: unknown tool "reed_file"; did you mean "read_file"/);
    assert.ok(
      engine.warnings.some((w) => /^agent definition skipped: .*finder\.yaml:8:22: tools\[1\]/.test(w)),
      engine.warnings.join('\n'),
    );
  });

  it('an unknown tool names only the nearest agent tools, not every usable one', async () => {
    const typo = await onlyProblem(replaceLine(8, 'tools: [search_text, raed_file]'));
    assert.match(typo.message, /^unknown tool "raed_file"; did you mean "read_file"(, "[a-z_]+")*\?$/);
    assert.ok(!typo.message.includes('list_files') && !typo.message.includes('run_command'), `only close names: ${typo.message}`);
    const unlike = await onlyProblem(replaceLine(8, 'tools: [search_text, deploy_to_production]'));
    assert.equal(unlike.message, 'unknown tool "deploy_to_production"; no agent tool has a similar name (`codewiki tools` lists them)');
    const workflowOnly = await onlyProblem(replaceLine(8, 'tools: [search_text, summarize_llm_tool]'));
    assert.ok(!workflowOnly.message.includes('read_file'), workflowOnly.message);
  });

  it('an unknown field, pointing at the key (there is no way to grant approvals from a definition)', async () => {
    const d = await onlyProblem(`${GOOD}\nauto_approve: true\n`);
    assert.deepEqual([d.line, d.column, d.field], [10, 1, 'auto_approve']);
    assert.match(d.message, /unknown field "auto_approve"/);
    const nested = await onlyProblem(replaceLine(6, '    description: What to find\n    default: x'));
    assert.deepEqual([nested.line, nested.column, nested.field], [7, 5, 'inputs[0].default']);
  });

  it('tools that are not agent tools, sub-agents, or listed twice', async () => {
    const workflowOnly = await onlyProblem(replaceLine(8, 'tools:\n  - read_file\n  - summarize_llm_tool'));
    assert.deepEqual([workflowOnly.line, workflowOnly.column, workflowOnly.field], [10, 5, 'tools[1]']);
    assert.match(workflowOnly.message, /"summarize_llm_tool" is not available to agents/);
    const nested = await onlyProblem(replaceLine(8, 'tools: [codebase_investigator]'));
    assert.deepEqual([nested.line, nested.column], [8, 9]);
    assert.match(nested.message, /a sub-agent cannot call another sub-agent/);
    const twice = await onlyProblem(replaceLine(8, 'tools: [read_file, read_file]'));
    assert.deepEqual([twice.line, twice.column, twice.field], [8, 20, 'tools[1]']);
  });

  it('bad types and bad values', async () => {
    const diagnostics = await problemsOf(replaceLine(5, '    type: text').replace('max_iterations: 4', 'max_iterations: many'));
    assert.deepEqual(
      diagnostics.map((d) => [d.line, d.column, d.field]),
      [
        [5, 11, 'inputs[0].type'],
        [9, 17, 'max_iterations'],
      ],
    );
    assert.match(diagnostics[0]!.message, /string/);
    const name = await onlyProblem(replaceLine(1, 'name: Find-Er'));
    assert.deepEqual([name.line, name.column, name.field], [1, 7, 'name']);
    assert.match(name.message, /lower-case letters, digits and _/);
    const tooMany = await onlyProblem(replaceLine(9, 'max_iterations: 500'));
    assert.deepEqual([tooMany.line, tooMany.field], [9, 'max_iterations']);
  });

  it('a name taken by a tool, a duplicate input, and an {input} that is not declared', async () => {
    const taken = await onlyProblem(replaceLine(1, 'name: write_file'));
    assert.deepEqual([taken.line, taken.column, taken.field], [1, 7, 'name']);
    assert.match(taken.message, /already the name of a tool/);
    const dup = await onlyProblem(replaceLine(6, '    description: What to find\n  - name: topic\n    type: integer\n    description: again'));
    assert.deepEqual([dup.line, dup.column, dup.field], [7, 11, 'inputs[1].name']);
    const undeclared = await onlyProblem(replaceLine(7, 'system: "Find {topik} in {{the}} code."'));
    assert.deepEqual([undeclared.line, undeclared.column, undeclared.field], [7, 9, 'system']);
    assert.match(undeclared.message, /\{topik\} is not an input of this agent \(inputs: topic\)/);
  });

  it('invisible characters: a bidi control is an error at its position, a zero-width space a warning', async () => {
    const bidi = await onlyProblem(replaceLine(2, 'description: Finds \u202Ethings'));
    assert.deepEqual([bidi.line, bidi.column, bidi.field], [2, 20, 'description']);
    assert.match(bidi.message, /U\+202E RIGHT-TO-LEFT OVERRIDE/);

    const engine = await engineWith({ [FILE]: replaceLine(2, 'description: Finds\u200B things') });
    const entry = engine.agents.entries().find((e) => e.source === 'workspace')!;
    assert.ok(entry.definition, 'a warning does not stop it');
    assert.deepEqual(
      entry.diagnostics.map((d) => [d.severity, d.line, d.column]),
      [['warning', 2, 19]],
    );
  });

  it('hostile YAML: alias expansion, forbidden keys, invalid YAML and huge files are refused with a location', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (const [i, letter] of ['b', 'c', 'd', 'e', 'f', 'g'].entries())
      laughs.push(
        `${letter}: &${letter} [${Array(9)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(',')}]`,
      );
    const bomb = await onlyProblem(`${GOOD}\n${laughs.join('\n')}\n`);
    assert.match(bomb.message, /expands to more than \d+ nodes through aliases/);
    assert.ok(bomb.line >= 10, `located in the alias section, got line ${bomb.line}`);

    const proto = await onlyProblem(replaceLine(6, '    description: What to find\n    __proto__: {}'));
    assert.deepEqual([proto.line, proto.column, proto.field], [7, 5, 'inputs[0].__proto__']);

    const invalid = await onlyProblem(replaceLine(8, 'tools: [search_text, read_file'));
    assert.match(invalid.message, /invalid YAML/);
    assert.equal(invalid.line, 9);

    const huge = await onlyProblem(`${GOOD}\n# ${'x'.repeat(300 * 1024)}\n`);
    assert.match(huge.message, /bytes; the limit is/);
  });

  it('a workspace definition replaces a built-in of the same name; two files of one folder may not share a name', async () => {
    const replacement = GOOD.replace('name: finder', 'name: codebase_investigator').replace('Finds things', 'The workspace version');
    const engine = await engineWith({ [FILE]: replacement, '.codewiki/agents/z-again.yaml': replacement });
    assert.equal(engine.agents.get('codebase_investigator')!.description, 'The workspace version');
    assert.equal(engine.agents.get('codebase_investigator')!.source, 'workspace');
    const again = engine.agents.entries().find((e) => e.file.endsWith('z-again.yaml'))!;
    assert.deepEqual(
      again.diagnostics.map((d) => [d.line, d.column, d.field]),
      [[1, 7, 'name']],
    );
    assert.match(again.diagnostics[0]!.message, /already defined in .*finder\.yaml/);
  });

  it('every YAML example in docs/agent.md loads', async () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'agent.md'), 'utf8');
    const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((yaml) => /^name:/m.test(yaml));
    assert.ok(examples.length >= 1, 'the Sub-agents section has an example');
    const files = Object.fromEntries(examples.map((yaml, i) => [join('.codewiki', 'agents', `example-${i}.yaml`), yaml]));
    const engine = await engineWith(files);
    for (const entry of engine.agents.entries()) assert.deepEqual(entry.diagnostics, [], entry.file);
    assert.equal(engine.agents.definitions().length, examples.length + 1);
  });

  it('an action prompt is an agent tool only with agent_callable: true', async () => {
    const prompt = (extra: string) =>
      `title: Grep\n${extra}input_variables:\n  - name: term\n    description: What to search for\ntool_chain:\n  - tool: search_text\n    input: { query: "{term}" }\n    output_variable: hits\noutput: "{hits}"\n`;
    const engine = await engineWith({
      '.codewiki/prompts/callable.yaml': prompt('agent_callable: true\n'),
      '.codewiki/prompts/plain.yaml': prompt(''),
      '.codewiki/prompts/write_file.yaml': prompt('agent_callable: true\n'),
    });
    const callable = engine.agentRegistry.get('callable')!;
    assert.equal(callable.metadata.agentCallable, true);
    assert.deepEqual(engine.agentRegistry.jsonSchema('callable').required, ['term']);
    assert.equal(engine.registry.get('plain')!.metadata.agentCallable, false);
    assert.ok(!engine.agentRegistry.has('plain'));
    assert.equal(engine.agentRegistry.get('write_file')!.metadata.kind, 'write', 'a prompt never stands in for a write tool');
    assert.ok(
      engine.warnings.some((w) => /write_file\.yaml: agent_callable ignored/.test(w)),
      engine.warnings.join('\n'),
    );
  });
});
