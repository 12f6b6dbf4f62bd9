import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { createAgent } from '../../src/core/createAgent';
import type { AgentEvent } from '../../src/core/agent/agentEvents';
import { denyingGate } from '../../src/core/agent/approvalGate';
import { createCodewikiEngine } from '../../src/core/codewikiEngine';
import { OpenAiModelProvider } from '../../src/core/llm/openAiModelProvider';
import { onlyTools } from '../../src/core/tools/toolToggles';
import { tempWorkspace } from '../support/engineBuilders';
import { pinnedModels, REPO_ROOT, startLocalModel, type LocalModelServer } from './localModelServer';

/**
 * The text tool protocol on real weights, with a chat template that has no tool support. Of the pinned
 * models only SmolLM2 135M ships such a template, and at 135M it does not follow any tool format (it
 * answers in prose or Python, measured); so the product's default model is served here with llama.cpp's
 * plain ChatML template (`--no-jinja --chat-template chatml`): the server then renders no tools at all,
 * exactly the setup the text protocol exists for. The model gets a real choice (three read tools, none
 * named in the question) and a question that says what to do, not how: read src/frequency.ts.
 * Asserted, for any sane model: its first request block asked for that tool and that file, it was parsed and
 * ran (no native tools can have been sent: this server refuses them), and the answer, free of request blocks,
 * names what the file exports.
 */
describe('real model: the text tool protocol with a chat template that has no tool support', function () {
  this.timeout(600_000); // 2-core CPU: two turns of a 1.5B model
  let server: LocalModelServer;
  let ws: ReturnType<typeof tempWorkspace>;

  before(async () => {
    server = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--no-jinja', '--chat-template', 'chatml', '--n-predict', '128'] });
    ws = tempWorkspace({
      'src/frequency.ts': 'export function countWords(text: string) { return text.split(" ").length; }\n',
      'src/sentences.ts': 'export function splitSentences(text: string) { return text.split(/[.!?]\\s+/); }\n',
      'README.md': '# words\nCounts words and splits sentences.\n',
    });
  });
  after(async () => {
    await server?.stop();
    ws?.cleanup();
  });

  it('picks the right tool and file among several through request blocks, and answers from what it read', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0 });
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    // Three read tools keep the prompt short and still make it a choice; no `@tool` mention forces one. Without the
    // code index, whose search before the first turn would hand the model the file (a call CodeWiki makes, not it).
    const agent = createAgent(engine, {
      gate: denyingGate('read-only test'),
      toolProtocol: 'text',
      toggles: onlyTools(['list_files', 'read_file', 'search_text']),
      caps: { maxIterations: 2 },
      useCodeIndex: false,
    });
    const events: AgentEvent[] = [];
    // "Read" names what to do, not which tool: list_files and search_text are offered beside read_file.
    const result = await agent.run({
      question: 'Read src/frequency.ts and tell me which function it exports.',
      conversationId: 'real-text',
      onEvent: (e) => events.push(e),
    });

    const turns = result.log.iterations.map((i) => i.text).join('\n---\n');
    const started = events.filter((e): e is Extract<AgentEvent, { type: 'tool-call-start' }> => e.type === 'tool-call-start');
    const first = started[0];
    assert.equal(first?.tool, 'read_file', `the first request block asked for read_file: ${JSON.stringify(started.map((c) => [c.tool, c.args]))}\n${turns}`);
    assert.equal(
      (first.args as { path?: string }).path?.replace(/^\.\//, ''),
      'src/frequency.ts',
      `…of the file the question names: ${JSON.stringify(first.args)}`,
    );
    const ended = events.find((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end' && e.id === first.id);
    assert.equal(ended?.status, 'ok', `the request block was parsed and ran: ${JSON.stringify(ended)}`);
    assert.match(result.answer, /countWords/, `the answer names what the file exports: ${JSON.stringify(result.answer)}`);
    assert.doesNotMatch(result.answer, /TOOL_REQUEST/, 'no request block in the answer');
    const turnStarts = events.filter((e) => e.type === 'turn-start').length;
    assert.ok(turnStarts >= 2, 'the result went back to the model for the answer');
  });
});
