import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { createAgent } from '../../src/core/agent';
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
 * exactly the setup the text protocol exists for. Asserted, for any sane model: a request block was parsed
 * and ran (no native tools can have been sent: this server refuses them), and an answer without request blocks came back.
 */
describe('real model: the text tool protocol with a chat template that has no tool support', function () {
  this.timeout(600_000); // 2-core CPU: two turns of a 1.5B model
  let server: LocalModelServer;
  let ws: ReturnType<typeof tempWorkspace>;

  before(async () => {
    server = await startLocalModel({ model: pinnedModels().defaultModel, args: ['--no-jinja', '--chat-template', 'chatml', '--n-predict', '128'] });
    ws = tempWorkspace({ 'src/frequency.ts': 'export function countWords(text: string) { return text.split(" ").length; }\n', 'README.md': '# words\n' });
  });
  after(async () => {
    await server?.stop();
    ws?.cleanup();
  });

  it('completes a tool-using question through request blocks', async () => {
    const models = new OpenAiModelProvider({ baseURL: server.baseUrl, model: server.model, temperature: 0 });
    const engine = await createCodewikiEngine({ workspaceRoot: ws.root, builtinPromptsDir: join(REPO_ROOT, 'action-prompts'), models });
    // One read tool keeps the prompt short; the mention asks for it, as `@read_file` in the question would.
    const agent = createAgent(engine, { gate: denyingGate('read-only test'), toolProtocol: 'text', toggles: onlyTools(['read_file']), caps: { maxIterations: 2 } });
    const events: AgentEvent[] = [];
    const result = await agent.run({ question: 'What does src/frequency.ts export?', mentions: ['read_file'], conversationId: 'real-text', onEvent: (e) => events.push(e) });

    const ended = events.filter((e): e is Extract<AgentEvent, { type: 'tool-call-end' }> => e.type === 'tool-call-end');
    const turns = result.log.iterations.map((i) => i.text).join('\n---\n');
    assert.ok(ended.some((c) => c.tool === 'read_file' && c.status === 'ok'), `a request block was parsed and ran: ${JSON.stringify(ended.map((c) => [c.tool, c.status, c.error]))}\n${turns}`);
    assert.ok(result.answer.trim().length > 0, 'it answered');
    assert.doesNotMatch(result.answer, /TOOL_REQUEST/, 'no request block in the answer');
    const turnStarts = events.filter((e) => e.type === 'turn-start').length;
    assert.ok(turnStarts >= 2, 'the result went back to the model for the answer');
  });
});
