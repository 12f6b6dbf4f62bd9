import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newMessageId } from '../../src/core/history/conversationIds';
import type { PromptRunMessage, AssistantMessage, UserMessage } from '../../src/core/history/conversationTypes';

/** Test-data builders and disk helpers shared by the history tests. */

export function userMessage(text: string, overrides: Partial<UserMessage> = {}): UserMessage {
  return { kind: 'user', id: newMessageId(), createdAt: new Date().toISOString(), text, ...overrides };
}

export function assistantMessage(text: string, overrides: Partial<AssistantMessage> = {}): AssistantMessage {
  return { kind: 'assistant', id: newMessageId(), createdAt: new Date().toISOString(), text, status: 'done', ...overrides };
}

export function agentRun(overrides: Partial<PromptRunMessage> = {}): PromptRunMessage {
  return {
    kind: 'prompt-run',
    id: newMessageId(),
    createdAt: new Date().toISOString(),
    promptId: 'generate-docs',
    promptTitle: 'Generate module docs',
    inputs: { module: 'src/payments', depth: 2, include: ['ledger.ts', 'refunds.ts'] },
    steps: [
      { id: 's1', tool: 'get_summary', status: 'success', durationMs: 120, attempts: 1, tokens: 0, outputPreview: '12 files' },
      { id: 's2', tool: 'select_files_llm', status: 'success', durationMs: 2400, attempts: 2, tokens: 812, inputPreview: '12 files' },
      { id: 's3', tool: 'read_files', status: 'skipped' },
    ],
    answer: 'The payments module reconciles the ledger nightly.',
    status: 'done',
    runLogPath: '/tmp/run-log.jsonl',
    ...overrides,
  };
}

/** A fresh storage folder per test, removed afterwards. */
export function useTempStorage(): { dir: () => string } {
  let current = '';
  beforeEach(() => {
    current = mkdtempSync(join(tmpdir(), 'codewiki-history-'));
  });
  afterEach(() => {
    rmSync(current, { recursive: true, force: true });
  });
  return { dir: () => current };
}

export function conversationFiles(storageDir: string): string[] {
  return readdirSync(join(storageDir, 'conversations')).sort();
}

export function readConversationFile(storageDir: string, id: string): string {
  return readFileSync(join(storageDir, 'conversations', `${id}.jsonl`), 'utf8');
}

/** Every byte the store wrote under the storage folder, for "this never reached the disk" checks. */
export function allStoredText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}
