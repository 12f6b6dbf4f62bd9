import { strict as assert } from 'node:assert';
import { z } from 'zod';
import { AgentToolSet } from '../../src/core/agent/agentToolSet';
import { modelAdapterFor, modelFamilyOf } from '../../src/core/agent/modelAdapters';
import { splitThinkBlocks, ThinkBlockSplitter } from '../../src/core/llm/thinkBlocks';
import { parseArguments } from '../../src/core/agent/toolCallParsing';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { NO_MODELS } from '../../src/core/llm/modelProvider';
import { codewikiTool } from '../../src/core/tools/codewikiTool';
import { ToolRegistry } from '../../src/core/tools/toolRegistry';
import { DEFAULT_TOOL_TOGGLES, isToolAvailableToAgent, NO_TOOLS, onlyTools, toolAvailability } from '../../src/core/tools/toolToggles';
import { tempWorkspace } from '../support/engineBuilders';
import { BUILTIN } from './agentHarness';

const PROMPT =
  'title: Mine\ninput_variables:\n  - name: topic\ntool_chain:\n  - tool: search_text\n    input: { query: "{topic}" }\n    output_variable: hits\nllm_prompt_template:\n  human: "{hits}"\n';

describe('tool metadata and toggles', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace({ '.codewiki/prompts/mine.yaml': PROMPT })));
  afterEach(() => ws.cleanup());

  it('every registered tool says explicitly whether the agent may call it', async () => {
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: NO_MODELS });
    const callable = (name: string) => (engine.agentRegistry.get(name) ?? engine.registry.get(name))!.metadata.agentCallable;
    for (const entry of [...engine.registry.list(), ...engine.agentRegistry.list()])
      assert.equal(typeof entry.metadata.agentCallable, 'boolean', entry.metadata.name);
    for (const name of [
      'list_files',
      'search_text',
      'read_file',
      'get_file_summaries',
      'get_files_content_by_list',
      'find_symbol',
      'search_code',
      'repo_map',
      'write_file',
      'edit_file',
      'run_command',
    ])
      assert.equal(callable(name), true, name);
    for (const name of ['file_selector_llm_tool', 'summarize_llm_tool', 'extract_json_llm_tool', 'mine']) assert.equal(callable(name), false, name);
    assert.ok(!engine.registry.has('write_file'), 'action prompts never see the write tools');
    assert.ok(engine.registry.list().every((entry) => !('enabledByDefault' in entry.metadata)));
  });

  it('a registration that does not say is not agent-callable (YAML llm_tools, nested prompts)', () => {
    const registry = new ToolRegistry().register(
      codewikiTool(async () => 'x', { name: 'quiet', description: 'd', schema: z.object({}) }),
      { kind: 'think', category: 'llm', displayName: 'Quiet', timeoutMs: 1000 },
    );
    assert.equal(registry.get('quiet')!.metadata.agentCallable, false);
  });

  it('decides availability from the master switch, explicit choices, then the default for new tools', () => {
    const tool = { name: 'read_file', agentCallable: true };
    assert.equal(toolAvailability(tool, DEFAULT_TOOL_TOGGLES), 'available');
    assert.equal(toolAvailability(tool, NO_TOOLS), 'all-tools-off');
    assert.equal(toolAvailability(tool, { enabled: true, perTool: { read_file: false }, defaultForNewTools: true }), 'turned-off');
    assert.equal(toolAvailability(tool, { enabled: true, perTool: { read_file: true }, defaultForNewTools: false }), 'available');
    assert.equal(
      toolAvailability({ name: 'brand_new', agentCallable: true }, { enabled: true, perTool: { read_file: true }, defaultForNewTools: false }),
      'turned-off',
    );
    assert.equal(
      toolAvailability(
        { name: 'summarize_llm_tool', agentCallable: false },
        { enabled: true, perTool: { summarize_llm_tool: true }, defaultForNewTools: true },
      ),
      'not-agent-callable',
    );
    assert.equal(
      isToolAvailableToAgent({ name: 'constructor', agentCallable: true }, { enabled: true, perTool: {}, defaultForNewTools: false }),
      false,
      'no prototype keys',
    );
    assert.deepEqual(onlyTools(['a']), { enabled: true, perTool: { a: true }, defaultForNewTools: false });
  });

  it('an AgentToolSet builds the wire definitions once and explains refusals', async () => {
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: BUILTIN, models: NO_MODELS });
    const set = AgentToolSet.create(engine.agentRegistry, { enabled: true, perTool: { run_command: false }, defaultForNewTools: true });
    assert.equal(set.definitions, set.definitions);
    assert.ok(Object.isFrozen(set.definitions));
    assert.deepEqual(set.names.sort(), [
      'edit_file',
      'find_symbol',
      'get_file_summaries',
      'get_files_content_by_list',
      'list_files',
      'read_file',
      'read_wiki',
      'repo_map',
      'search_code',
      'search_text',
      'write_file',
    ]);
    assert.deepEqual(set.definitions.find((d) => d.function.name === 'list_files')!.function.parameters, engine.agentRegistry.jsonSchema('list_files'));
    assert.match((set.lookup('run_command') as { error: string }).error, /is disabled: it is turned off in the tool settings/);
    assert.match((set.lookup('summarize_llm_tool') as { error: string }).error, /is disabled: it is not available to the agent/);
    assert.match((set.lookup('mine') as { error: string }).error, /^Unknown tool "mine"/, 'workspace prompts are not agent tools');
  });
});

describe('agent helpers', () => {
  it('splits <think> blocks however the stream is chunked', () => {
    const text = 'pre<think>reason one</think>answer <think>more</think>end';
    for (let size = 1; size <= text.length; size++) {
      const splitter = new ThinkBlockSplitter();
      let answer = '';
      let reasoning = '';
      for (let at = 0; at < text.length; at += size) {
        const piece = splitter.push(text.slice(at, at + size));
        answer += piece.answer;
        reasoning += piece.reasoning;
      }
      const rest = splitter.flush();
      assert.equal(answer + rest.answer, 'preanswer end', `chunk size ${size}`);
      assert.equal(reasoning + rest.reasoning, 'reason onemore', `chunk size ${size}`);
    }
    assert.deepEqual(splitThinkBlocks('a < b <thin'), { answer: 'a < b <thin', reasoning: '' });
  });

  it('picks model guidance by name, overridable by settings', () => {
    const cases: Array<[string, string]> = [
      ['gpt-4o-mini', 'gpt'],
      ['o3-mini', 'gpt'],
      ['claude-sonnet-4', 'claude'],
      ['Qwen2.5-Coder-1.5B-Instruct-GGUF', 'qwen'],
      ['meta-llama/Llama-3.1-8B', 'llama'],
      ['gemma3:270m', 'gemma'],
      ['deepseek-r1:7b', 'deepseek'],
      ['smollm2-135m', 'default'],
    ];
    for (const [model, family] of cases) assert.equal(modelFamilyOf(model), family, model);
    assert.equal(modelAdapterFor('gpt-4o', { guidance: { gpt: 'Be brief.' } }).guidance, 'Be brief.');
    assert.equal(modelAdapterFor('mystery', { family: 'qwen' }).family, 'qwen');
  });

  it('parses arguments strictly', () => {
    assert.deepEqual(parseArguments(''), { args: {} });
    assert.deepEqual(parseArguments('{"a":1}'), { args: { a: 1 } });
    assert.match((parseArguments('[1]') as { argsError: string }).argsError, /must be a JSON object, not an array/);
    assert.match((parseArguments('"x"') as { argsError: string }).argsError, /not string/);
    assert.match((parseArguments('{"a":') as { argsError: string }).argsError, /not valid JSON/);
  });
});
