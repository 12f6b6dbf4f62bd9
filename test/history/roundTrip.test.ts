import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateManager } from '../../src/core/history/stateManager';
import { agentRun, assistantMessage, conversationFiles, useTempStorage, userMessage } from './historyBuilders';

describe('history: round trip through disk', () => {
  const storage = useTempStorage();

  async function reopen(manager: StateManager): Promise<StateManager> {
    await manager.dispose();
    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    return reopened;
  }

  it('restores chat turns and an agent run (inputs, steps, answer) exactly', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const messages = [
      userMessage('How are refunds booked?'),
      assistantMessage('Refunds post a reversing ledger entry.', { model: 'gpt-4o-mini', usage: { input: 30, output: 12, total: 42 } }),
      agentRun(),
    ];
    for (const message of messages) await manager.appendMessage(conversation.id, message);
    const before = manager.getConversation(conversation.id);

    const reopened = await reopen(manager);
    const after = reopened.getConversation(conversation.id);
    assert.deepEqual(after, before);
    assert.deepEqual(after?.messages, messages);
    assert.equal(after?.title, 'How are refunds booked?', 'title defaults from the first user text');
    assert.deepEqual(conversationFiles(storage.dir()), [`${conversation.id}.jsonl`]);
    await reopened.dispose();
  });

  it('a conversation saved when a prompt run was called "agent-run" still loads, as a prompt run, and is rewritten only in the new name', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    await manager.appendMessage(conversation.id, agentRun({ answer: 'OLD_RUN_ANSWER' }));
    await manager.dispose();
    const file = join(storage.dir(), 'conversations', `${conversation.id}.jsonl`);
    const saved = readFileSync(file, 'utf8');
    writeFileSync(file, saved.replaceAll('"kind":"prompt-run"', '"kind":"agent-run"'));
    assert.match(readFileSync(file, 'utf8'), /"kind":"agent-run"/, 'the file is in the old format');

    const { manager: reopened, problems } = await StateManager.open(storage.dir());
    assert.deepEqual(problems, []);
    const [run] = reopened.getConversation(conversation.id)!.messages;
    assert.deepEqual([run?.kind, run?.kind === 'prompt-run' && run.answer], ['prompt-run', 'OLD_RUN_ANSWER']);
    await reopened.dispose();
  });

  it('lists and restores an /agent run that has no plain user message (the lost-run bug)', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    const run = agentRun({ status: 'running', steps: [], answer: '' });
    await manager.appendMessage(conversation.id, run);
    await manager.upsertMessage(conversation.id, { ...run, steps: agentRun().steps });
    await manager.upsertMessage(conversation.id, { ...run, steps: agentRun().steps, answer: 'Docs written.', status: 'done' });

    const reopened = await reopen(manager);
    const [summary] = reopened.listConversations();
    assert.equal(summary?.id, conversation.id);
    assert.equal(summary?.title, 'Generate module docs');
    assert.equal(summary?.messageCount, 1);
    assert.equal(summary?.preview, 'Docs written.');
    const restored = reopened.getConversation(conversation.id)?.messages[0];
    assert.ok(restored?.kind === 'prompt-run');
    assert.deepEqual(restored.inputs, run.inputs, 'what the user asked is restored');
    assert.equal(restored.steps.length, 3);
    assert.equal(restored.answer, 'Docs written.');
    await reopened.dispose();
  });

  it('saves a streaming answer that was stopped or failed, with its partial text and status', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Streaming');
    const stopped = assistantMessage('Partial answer, then the user pressed St', { status: 'stopped' });
    const failed = assistantMessage('Half of a', { status: 'error', error: 'The server closed the connection' });
    await manager.appendMessage(conversation.id, userMessage('one'));
    await manager.upsertMessage(conversation.id, stopped);
    await manager.appendMessage(conversation.id, userMessage('two'));
    await manager.upsertMessage(conversation.id, failed);

    const reopened = await reopen(manager);
    const messages = reopened.getConversation(conversation.id)?.messages ?? [];
    assert.deepEqual(messages[1], stopped);
    assert.deepEqual(messages[3], failed);
    await reopened.dispose();
  });

  it('shows a turn that was still streaming when the process died as stopped, keeping its text', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation();
    await manager.appendMessage(conversation.id, assistantMessage('so far', { status: 'streaming' }));
    await manager.appendMessage(conversation.id, agentRun({ status: 'running', steps: [{ id: 's', tool: 't', status: 'running' }] }));

    const reopened = await reopen(manager);
    const [answer, run] = reopened.getConversation(conversation.id)?.messages ?? [];
    assert.ok(answer?.kind === 'assistant' && run?.kind === 'prompt-run');
    assert.equal(answer.status, 'stopped');
    assert.equal(answer.text, 'so far');
    assert.equal(run.status, 'stopped');
    assert.equal(run.steps[0]?.status, 'cancelled');
    await reopened.dispose();
  });

  it('searches titles, message text, agent answers and agent input values, case-insensitively', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const chat = await manager.createConversation();
    await manager.appendMessage(chat.id, userMessage('What is a saga?'));
    await manager.appendMessage(chat.id, assistantMessage('A saga coordinates Distributed transactions.'));
    const agent = await manager.createConversation();
    await manager.appendMessage(agent.id, agentRun({ inputs: { module: 'src/Billing/invoices', options: { include: ['ledger.ts'] } } }));

    const reopened = await reopen(manager);
    const ids = (text: string) => reopened.search(text).map((s) => s.id);
    assert.deepEqual(ids('distributed TRANSACTIONS'), [chat.id]);
    assert.deepEqual(ids('billing/INVOICES'), [agent.id]);
    assert.deepEqual(ids('ledger nightly'), [agent.id], 'agent answer');
    assert.deepEqual(ids('ledger.ts'), [agent.id], 'nested input value');
    assert.deepEqual(ids('saga?'), [chat.id], 'title');
    assert.deepEqual(ids('no such words'), []);
    await reopened.dispose();
  });

  it('lists newest first, renames, persists the open conversation and deletes into trash', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const older = await manager.createConversation('Older');
    const newer = await manager.createConversation('Newer');
    await manager.rename(older.id, '  Renamed older  ');
    await manager.appendMessage(newer.id, userMessage('latest activity'));
    await manager.setOpenConversationId(older.id);

    let reopened = await reopen(manager);
    assert.deepEqual(
      reopened.listConversations().map((s) => s.title),
      ['Newer', 'Renamed older'],
    );
    assert.equal(reopened.getOpenConversationId(), older.id, 'a window reload restores the open conversation');

    assert.equal(await reopened.delete(older.id), true);
    assert.equal(await reopened.delete(older.id), false);
    assert.equal(reopened.getOpenConversationId(), undefined);
    assert.deepEqual(readdirSync(join(storage.dir(), 'trash')), [`${older.id}.jsonl`], 'deleted file is kept in trash');
    assert.match(readFileSync(join(storage.dir(), 'trash', `${older.id}.jsonl`), 'utf8'), /Renamed older/);

    reopened = await reopen(reopened);
    assert.deepEqual(
      reopened.listConversations().map((s) => s.id),
      [newer.id],
    );
    assert.equal(reopened.getConversation(older.id), undefined);
    assert.equal(reopened.getOpenConversationId(), undefined);
    await reopened.dispose();
  });

  it('exports readable Markdown with user turns, answers and agent runs', async () => {
    const { manager } = await StateManager.open(storage.dir());
    const conversation = await manager.createConversation('Payments docs');
    await manager.appendMessage(conversation.id, userMessage('Explain refunds'));
    await manager.appendMessage(conversation.id, assistantMessage('Refunds reverse entries.', { model: 'gpt-4o' }));
    await manager.appendMessage(conversation.id, agentRun({ status: 'error', error: 'Token budget exceeded' }));

    const markdown = manager.exportMarkdown(conversation.id);
    for (const expected of [
      '# Payments docs',
      '## You\n\nExplain refunds',
      '## Assistant (gpt-4o)\n\nRefunds reverse entries.',
      '## Agent run: Generate module docs',
      '- module: src/payments',
      '- depth: 2',
      '- include: ["ledger.ts","refunds.ts"]',
      '1. `get_summary` (success, 120 ms, 0 tokens)',
      '2. `select_files_llm` (success, 2.4 s, 2 attempts, 812 tokens)',
      '3. `read_files` (skipped)',
      '**Answer**\n\nThe payments module reconciles the ledger nightly.',
      '_Status: error: Token budget exceeded_',
    ]) {
      assert.ok(markdown.includes(expected), `missing ${JSON.stringify(expected)} in:\n${markdown}`);
    }
    await manager.dispose();
  });
});
