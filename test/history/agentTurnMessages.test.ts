import { strict as assert } from 'node:assert';
import { newMessageId } from '../../src/core/history/conversationIds';
import type { AgentTurnMessage } from '../../src/core/history/conversationTypes';
import { StateManager } from '../../src/core/history/stateManager';
import { allStoredText, useTempStorage, userMessage } from './historyBuilders';

function agentTurn(overrides: Partial<AgentTurnMessage> = {}): AgentTurnMessage {
  return {
    kind: 'agent-turn',
    id: newMessageId(),
    createdAt: new Date().toISOString(),
    answer: 'The retry policy lives in `src/llm/retryPolicy.ts:12`.',
    status: 'done',
    toolCalls: [
      {
        id: 'c1',
        tool: 'search_text',
        displayName: 'Search text',
        kind: 'read',
        argsSummary: 'query="retry"',
        args: { query: 'retry' },
        iteration: 1,
        status: 'ok',
        durationMs: 41,
        tokens: { input: 0, output: 0, total: 0 },
        output: 'src/llm/retryPolicy.ts:12: export const RETRY_STATUS = [429, 503]',
      },
      {
        id: 'c2',
        tool: 'edit_file',
        displayName: 'Edit file',
        kind: 'write',
        argsSummary: 'path="a.ts"',
        args: { path: 'a.ts', old_text: 'x', new_text: 'y' },
        iteration: 2,
        status: 'denied',
        preview: { type: 'diff', path: 'a.ts', action: 'edit', diff: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-x\n+y\n', added: 1, removed: 1 },
        approval: { decision: 'deny', by: 'user', reason: 'not that file' },
      },
      {
        id: 'k1',
        tool: 'read_file',
        displayName: 'Read file',
        argsSummary: 'path="b.ts"',
        args: { path: 'b.ts' },
        iteration: 1,
        status: 'error',
        error: 'b.ts does not exist',
        parentCallId: 'c9',
      },
    ],
    reasoning: 'Search first.',
    warnings: ['the answer was cut off'],
    stopReason: 'answered',
    iterations: 3,
    tokens: { input: 1200, output: 80, total: 1280 },
    model: 'qwen2.5-coder',
    context: [{ kind: 'selection', path: 'src/a.ts', startLine: 3, endLine: 9 }],
    mentions: ['search_text'],
    openFile: 'src/a.ts',
    durationMs: 5230,
    ...overrides,
  };
}

describe('history: agent-mode turns', () => {
  const storage = useTempStorage();

  it('round-trip through the disk with every field, and drop undeclared ones', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const turn = agentTurn();
    const leaky = structuredClone(turn) as unknown as Record<string, unknown> & AgentTurnMessage;
    (leaky.toolCalls[0] as unknown as Record<string, unknown>).apiKey = 'sk-NOT-STORED-123';
    leaky.llmConfig = { apiKey: 'sk-NOT-STORED-123' };
    await manager.appendMessage(conversation.id, userMessage('where is retry decided?'));
    await manager.appendMessage(conversation.id, leaky);
    await manager.dispose();

    const { manager: reopened } = await StateManager.open(storage.dir());
    assert.deepEqual(reopened.getConversation(conversation.id)!.messages[1], turn);
    assert.ok(!allStoredText(storage.dir()).includes('sk-NOT-STORED'));
    await reopened.dispose();
  });

  it('reject malformed turns', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const bad = [
      { ...agentTurn(), status: 'running' },
      { ...agentTurn(), toolCalls: [{ ...agentTurn().toolCalls[0], status: 'maybe' }] },
      { ...agentTurn(), toolCalls: [{ ...agentTurn().toolCalls[1], approval: { decision: 'allow-always', by: 'user' } }] },
    ];
    for (const message of bad)
      await assert.rejects(manager.upsertMessage(conversation.id, message as unknown as AgentTurnMessage), { name: 'InvalidMessageError' });
    await manager.dispose();
  });

  it('Markdown export writes each call with its status, approval, diff and output', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Retry');
    await manager.appendMessage(conversation.id, userMessage('where is retry decided?'));
    await manager.appendMessage(conversation.id, agentTurn());
    const markdown = manager.exportMarkdown(conversation.id);
    assert.match(markdown, /## Agent \(qwen2\.5-coder\)\n\n_Context: `src\/a\.ts` lines 3–9_/);
    assert.match(
      markdown,
      /1\. ✓ `search_text` query="retry" \(ok, 41 ms\)\n\n```text\nsrc\/llm\/retryPolicy\.ts:12: export const RETRY_STATUS = \[429, 503\]\n```/,
    );
    assert.match(markdown, /2\. ⊘ `edit_file` path="a\.ts" \(denied, denied by you: not that file\)\n\n```diff\n--- a\/a\.ts\n/);
    assert.match(markdown, /3\. ✗ `read_file` \(sub-agent\) path="b\.ts" \(error\)\n\nError: b\.ts does not exist/);
    assert.match(markdown, /\*\*Answer\*\*\n\nThe retry policy lives in/);
    assert.match(markdown, /_Warnings: the answer was cut off_/);
    await manager.dispose();
  });

  it('search finds a turn by its answer, tool arguments and tool output', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Untitled');
    await manager.appendMessage(conversation.id, agentTurn());
    for (const query of ['RETRY_STATUS', 'query="retry"', 'does not exist', 'lives in']) assert.equal(manager.search(query).length, 1, query);
    assert.equal(manager.search('Search first').length, 0, 'reasoning is not searched');
    await manager.dispose();
  });
});
