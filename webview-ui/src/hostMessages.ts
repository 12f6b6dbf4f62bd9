import type { PromptRunMessage, ChatMessage, Conversation, HostToWebview } from '../../src/shared/protocol';
import { applyAgentModeMessage, finishAgentTurn } from './agentModeMessages';
import { initialValues, lastFormValues } from './formModel';
import type { AppState, Store } from './state';
import type { StreamBuffer } from './streamBuffer';

let noticeCounter = 0;
export const nextNoticeId = () => `notice-${++noticeCounter}`;

/** Cheap shape check: the page only listens to its host, but a stray `message` event must not crash the app. */
export function isHostMessage(data: unknown): data is HostToWebview {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}

/** Applies one host message to the store. Unknown types are ignored so an older webview survives a newer host. */
export function applyHostMessage(store: Store, stream: StreamBuffer, message: HostToWebview): void {
  const state = store.current;
  switch (message.type) {
    case 'state/init':
      stream.clear();
      // Approvals still waiting are sent again after state/init.
      store.update({
        initialized: true,
        status: message.status,
        prompts: message.prompts,
        approvals: [],
        ...withoutStaleForm(state, message.prompts),
        ...(message.conversation ? conversationPatch(message.conversation) : NO_CONVERSATION),
      });
      return;
    case 'status/update':
      return store.update({ status: message.status });
    case 'prompts/list':
      return store.update({ prompts: message.prompts, ...withoutStaleForm(state, message.prompts) });
    case 'conversation/load':
      stream.clear();
      return store.update({ ...conversationPatch(message.conversation), panel: state.panel === 'history' ? 'chat' : state.panel });
    case 'chat/started':
      return appendMessages(store, message.conversationId, [message.user, message.assistant], message.assistant.id);
    case 'promptRun/started':
      return appendMessages(store, message.conversationId, [message.run], message.run.id);
    case 'chat/chunk':
      return stream.push(message.messageId, message.text);
    case 'promptRun/chunk':
      return stream.push(message.runId, message.text);
    case 'chat/reasoning':
      return stream.pushReasoning(message.messageId, message.text);
    case 'promptRun/reasoning':
      return stream.pushReasoning(message.runId, message.text);
    case 'chat/done':
    case 'promptRun/done': {
      stream.flush();
      const done = message.type === 'chat/done' ? message.message : message.run;
      store.patchMessage(done.id, () => done);
      if (state.activeId === done.id) store.update({ activeId: undefined });
      return;
    }
    case 'agentTurn/started':
      return appendMessages(store, message.conversationId, [message.user, message.turn], message.turn.id);
    case 'agentTurn/chunk':
      return stream.push(message.turnId, message.text);
    case 'agentTurn/reasoning':
      return stream.pushReasoning(message.turnId, message.text);
    case 'agentTurn/done':
      stream.flush();
      return finishAgentTurn(store, message.turn);
    case 'agentTurn/toolCall':
    case 'agentTurn/usage':
    case 'agentTurn/warning':
    case 'agentTurn/answerRestart':
    case 'agentTurn/fallback':
    case 'agentTurn/definitions':
    case 'agentTurn/indexContext':
    case 'agentTurn/instructions':
    case 'agentTurn/indexWait':
    case 'agent/approval':
    case 'agent/approvalSettled':
    case 'tools/list':
    case 'chat/mode':
    case 'context/add':
      return applyAgentModeMessage(store, stream, message);
    case 'promptRun/step':
      return store.patchMessage(message.runId, (run) => (run.kind === 'prompt-run' ? withStep(run, message.step) : run));
    case 'history/list':
      // A slow answer to an older search must not overwrite the newer one.
      if (message.query !== state.history.query) return;
      return store.update({ history: { query: message.query, items: message.items, loaded: true } });
    case 'path/suggestions':
    case 'path/picked':
    case 'selection/current':
      return; // replies: HostRequests settles them (main.ts), a late one is dropped there
    case 'error/show':
      return store.update({ notices: [...state.notices, { id: nextNoticeId(), kind: 'error', text: message.message }] });
    case 'ui/show':
      return showView(store, message.view, message.promptId);
  }
}

function showView(store: Store, view: 'chat' | 'history' | 'agent', promptId?: string): void {
  if (view !== 'agent') return store.update({ panel: view });
  const prompt = promptId ? store.current.prompts.find((p) => p.id === promptId && !p.error) : undefined;
  if (!prompt) return store.update({ panel: 'picker', pickerQuery: promptId ?? '' });
  store.update({ panel: 'form', form: { promptId: prompt.id, values: { ...initialValues(prompt), ...lastFormValues(store.current, prompt) }, errors: {} } });
}

/** state/init is the whole state: without a conversation, the view is a new chat. */
const NO_CONVERSATION: Partial<AppState> = { conversationId: undefined, messages: [], activeId: undefined };

function conversationPatch(conversation: Conversation): Partial<AppState> {
  const live = conversation.messages.find(
    (m) => ((m.kind === 'assistant' || m.kind === 'agent-turn') && m.status === 'streaming') || (m.kind === 'prompt-run' && m.status === 'running'),
  );
  // A fresh array: the host's object must not be mutated by later in-place patches.
  return { conversationId: conversation.id, messages: [...conversation.messages], activeId: live?.id };
}

function appendMessages(store: Store, conversationId: string, added: ChatMessage[], activeId: string): void {
  const state = store.current;
  // A turn for another conversation (e.g. the host started a new one) replaces the shown one.
  const messages = state.conversationId === conversationId ? [...state.messages] : [];
  // Upsert: a retried turn may reuse its ids, and must not appear twice.
  for (const message of added) {
    const index = messages.findIndex((m) => m.id === message.id);
    if (index >= 0) messages[index] = message;
    else messages.push(message);
  }
  store.update({ conversationId, messages, activeId, panel: state.panel === 'history' ? 'chat' : state.panel });
}

function withStep(run: PromptRunMessage, step: PromptRunMessage['steps'][number]): PromptRunMessage {
  const index = run.steps.findIndex((s) => s.id === step.id);
  const steps = index < 0 ? [...run.steps, step] : run.steps.map((s, i) => (i === index ? step : s));
  return { ...run, steps };
}

function withoutStaleForm(state: AppState, prompts: AppState['prompts']): Partial<AppState> {
  if (!state.form || prompts.some((p) => p.id === state.form?.promptId && !p.error)) return {};
  return { form: undefined, panel: state.panel === 'form' ? 'chat' : state.panel };
}
