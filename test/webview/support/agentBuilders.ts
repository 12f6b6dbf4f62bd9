import type { AgentToolCall, AgentTurnMessage, ApprovalPrompt, HostToWebview, ToolInfo, ToolsState } from '../../../src/shared/protocol';

/** Test-data builders for agent mode: a sensible whole object, with the fields a test cares about overridden. */
const when = '2025-01-02T10:00:00.000Z';

export const agentTurn = (id: string, over: Partial<AgentTurnMessage> = {}): AgentTurnMessage => ({
  kind: 'agent-turn',
  id,
  createdAt: when,
  answer: '',
  status: 'done',
  toolCalls: [],
  model: 'qwen2.5-coder',
  ...over,
});

export const toolCall = (id: string, over: Partial<AgentToolCall> = {}): AgentToolCall => ({
  id,
  tool: 'read_file',
  displayName: 'Read file',
  kind: 'read',
  argsSummary: 'path="src/a.ts"',
  args: { path: 'src/a.ts' },
  iteration: 1,
  status: 'ok',
  durationMs: 12,
  output: 'export const a = 1;',
  ...over,
});

export const tool = (name: string, over: Partial<ToolInfo> = {}): ToolInfo => ({
  name,
  displayName: name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
  description: `What ${name} does`,
  kind: 'read',
  category: 'file',
  agentCallable: true,
  enabled: true,
  ...over,
});

export const toolsState = (over: Partial<ToolsState> = {}): ToolsState => ({
  enabled: true,
  enableNewTools: true,
  tools: [
    tool('read_file'),
    tool('search_files', { displayName: 'Search files', category: 'search' }),
    tool('edit_file', { displayName: 'Edit file', kind: 'write' }),
    tool('run_command', { displayName: 'Run command', kind: 'execute', category: 'shell' }),
    tool('codebase_investigator', { displayName: 'Codebase investigator', kind: 'think', category: 'llm' }),
    tool('summarize_folder', { displayName: 'Summarize a folder', kind: 'think', category: 'prompt', agentCallable: false, enabled: false }),
  ],
  ...over,
});

export const toolsList = (over: Partial<ToolsState> = {}): HostToWebview => ({ type: 'tools/list', ...toolsState(over) });

export const DIFF = [
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1,2 +1,2 @@',
  ' export const a = 1;',
  '-export const b = 2;',
  '+export const b = "<img src=x onerror=alert(1)>";',
  '',
].join('\n');

export const approval = (over: Partial<ApprovalPrompt> = {}): HostToWebview => ({
  type: 'agent/approval',
  turnId: 't1',
  approvalId: 'ap1',
  callId: 'c-edit',
  tool: 'edit_file',
  displayName: 'Edit file',
  kind: 'write',
  preview: { type: 'diff', path: 'src/a.ts', action: 'edit', diff: DIFF, added: 1, removed: 1 },
  why: 'Edit file changes files: it asks before it runs.',
  canAllowForConversation: true,
  ...over,
});
