import type {
  PromptRunMessage,
  PromptStepRecord,
  AssistantMessage,
  Conversation,
  ConversationSummary,
  HostStatus,
  HostToWebview,
  PromptSummary,
  UserMessage,
} from '../../../src/shared/protocol';

/** Test-data builders: a sensible whole object, with the fields a test cares about overridden. */
const when = '2025-01-02T10:00:00.000Z';

export const status = (over: Partial<HostStatus> = {}): HostStatus => ({
  configured: true,
  baseUrl: 'http://127.0.0.1:11434/v1',
  model: 'llama3.1:8b',
  toolModel: 'qwen2.5:3b',
  hasApiKey: false,
  trusted: true,
  ...over,
});

export const user = (id: string, text: string): UserMessage => ({ kind: 'user', id, createdAt: when, text });

export const assistant = (id: string, text: string, over: Partial<AssistantMessage> = {}): AssistantMessage => ({
  kind: 'assistant',
  id,
  createdAt: when,
  text,
  status: 'done',
  model: 'llama3.1:8b',
  ...over,
});

export const step = (id: string, over: Partial<PromptStepRecord> = {}): PromptStepRecord => ({ id, tool: 'read_file', status: 'success', ...over });

export const agentRun = (id: string, over: Partial<PromptRunMessage> = {}): PromptRunMessage => ({
  kind: 'prompt-run',
  id,
  createdAt: when,
  promptId: 'summarize',
  promptTitle: 'Summarize a folder',
  inputs: { path: 'src', depth: 2 },
  steps: [],
  answer: '',
  status: 'done',
  ...over,
});

export const conversation = (id: string, messages: Conversation['messages'], title = 'A conversation'): Conversation => ({
  id,
  title,
  createdAt: when,
  updatedAt: when,
  messages,
});

export const summary = (id: string, title: string, over: Partial<ConversationSummary> = {}): ConversationSummary => ({
  id,
  title,
  createdAt: when,
  updatedAt: when,
  messageCount: 4,
  preview: `About ${title}`,
  ...over,
});

/** A prompt with one field of every type, so one form exercises every control. */
export const everyControlPrompt = (): PromptSummary => ({
  id: 'review',
  title: 'Review code',
  description: 'Reviews files with a checklist',
  source: 'workspace',
  inputs: [
    { name: 'topic', label: 'Topic', type: 'text', required: true },
    { name: 'notes', label: 'Notes', type: 'multiline', required: false, default: 'line one' },
    { name: 'path', label: 'Path', type: 'path', required: true, default: 'src' },
    { name: 'depth', label: 'Depth', type: 'number', required: true, default: 2 },
    { name: 'strict', label: 'Strict', type: 'boolean', required: false, default: true },
    { name: 'level', label: 'Level', type: 'select', required: true, options: ['low', 'high', 3], default: 'high' },
  ],
});

export const simplePrompt = (id: string, title: string, over: Partial<PromptSummary> = {}): PromptSummary => ({
  id,
  title,
  description: `${title} description`,
  source: 'builtin',
  inputs: [{ name: 'path', label: 'Path', type: 'path', required: true }],
  ...over,
});

export const brokenPrompt = (): PromptSummary => ({
  id: 'broken',
  title: 'Broken prompt',
  description: '',
  source: 'workspace',
  inputs: [],
  error: 'broken.yaml:3:5: steps[0].tool: unknown tool "nope"',
});

export const init = (over: Partial<Extract<HostToWebview, { type: 'state/init' }>> = {}): HostToWebview => ({
  type: 'state/init',
  status: status(),
  prompts: [everyControlPrompt(), simplePrompt('summarize', 'Summarize a folder'), brokenPrompt()],
  ...over,
});

/**
 * Answers that look ordinary but are heavy to render while streaming (issue 7): runs of blocks
 * with no blank line between them, and long paragraphs of emphasis.
 */
export const HEAVY_ANSWERS: Record<string, (count: number) => string> = {
  'code fences': (count) => Array.from({ length: count }, (_, i) => `Step ${i}:\n\`\`\`sh\nnpm test -- --grep case-${i}\n\`\`\`\n`).join(''),
  headings: (count) => Array.from({ length: count }, (_, i) => `## Section ${i}\nWhat section ${i} covers.\n`).join(''),
  emphasis: (count) => Array.from({ length: count }, (_, i) => `**Term ${i}**: an *emphasised* explanation of ${i}.\n`).join(''),
};
