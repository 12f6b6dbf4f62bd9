import { LOG_FORMAT_VERSION, type ConversationEvent } from './conversationLog';
import type { AgentToolCall, AgentTurnMessage, AgentTurnProgress, ChatMessage, Conversation, ConversationSummary } from './conversationTypes';
import { agentTurnAnswer } from './agentTurnAnswer';

/**
 * Pure in-memory rules shared by live edits and by replaying a log from disk, so a reopened
 * conversation is built by exactly the same code that built it the first time.
 */
export interface ConversationState {
  conversation: Conversation;
  /** False while the title is still derived from the first user text or agent run. */
  explicitTitle: boolean;
  /** The format of the file this state was read from (its header's `v`); new conversations get the current one. */
  formatVersion: number;
}

const DEFAULT_TITLE = 'New conversation';
const TITLE_LENGTH = 80;
const PREVIEW_LENGTH = 140;
export const INTERRUPTED_MESSAGE = 'Interrupted: CodeWiki stopped before this finished.';

export function newConversationState(id: string, at: string, title?: string): ConversationState {
  const explicitTitle = title !== undefined && title.trim() !== '';
  return {
    conversation: { id, title: explicitTitle ? title : DEFAULT_TITLE, createdAt: at, updatedAt: at, messages: [] },
    explicitTitle,
    formatVersion: LOG_FORMAT_VERSION,
  };
}

export function applyEvent(state: ConversationState, event: ConversationEvent): void {
  const { conversation } = state;
  if (event.type === 'message') upsertMessage(state, event.message);
  if (event.type === 'agent-call') foldAgentCall(conversation.messages, event.turnId, event.call, event.progress);
  if (event.type === 'rename') {
    conversation.title = event.title;
    state.explicitTitle = true;
  }
  if (event.at > conversation.updatedAt) conversation.updatedAt = event.at;
}

/** Replaces the message with the same id in place, or appends it. */
function upsertMessage(state: ConversationState, message: ChatMessage): void {
  const { messages } = state.conversation;
  const index = messages.findIndex((m) => m.id === message.id);
  if (index >= 0) messages[index] = message;
  else messages.push(message);
  if (!state.explicitTitle) state.conversation.title = deriveTitle(messages);
}

/**
 * An `agent-call` record: the call replaces the turn's call with the same id and parent, or is added
 * after the others (records come in the order the calls started), and the turn takes the progress.
 * A record whose turn is not in the conversation changes nothing. The turn is replaced, never changed
 * in place: the object may also sit in a queued `message` event that has yet to be written.
 */
function foldAgentCall(messages: ChatMessage[], turnId: string, call: AgentToolCall, progress: AgentTurnProgress | undefined): void {
  const at = messages.findLastIndex((m) => m.kind === 'agent-turn' && m.id === turnId);
  if (at < 0) return;
  const turn = { ...(messages[at] as AgentTurnMessage) };
  const calls = [...turn.toolCalls];
  let index = calls.length - 1; // the call that changed is almost always one of the last
  while (index >= 0 && !(calls[index]!.id === call.id && calls[index]!.parentCallId === call.parentCallId)) index--;
  if (index >= 0) calls[index] = call;
  else calls.push(call);
  turn.toolCalls = calls;
  if (progress?.answerAdded) turn.answer += progress.answerAdded;
  if (progress?.answerStart !== undefined) turn.answerStart = progress.answerStart;
  if (progress?.reasoningAdded) turn.reasoning = (turn.reasoning ?? '') + progress.reasoningAdded;
  if (progress?.warningsAdded?.length) turn.warnings = [...(turn.warnings ?? []), ...progress.warningsAdded];
  if (progress?.tokens) turn.tokens = progress.tokens;
  if (progress?.iterations !== undefined) turn.iterations = progress.iterations;
  if (progress?.model !== undefined) turn.model = progress.model;
  if (progress?.fallback !== undefined) turn.fallback = progress.fallback;
  messages[at] = turn;
}

/** Rebuilds a conversation from its log. The caller has checked that the first event is the header. */
export function replayEvents(events: ConversationEvent[]): ConversationState {
  const header = events[0];
  if (!header || header.type !== 'create') throw new Error('A conversation log must start with its header');
  const state = newConversationState(header.id, header.at, header.title);
  state.formatVersion = header.v;
  for (const event of events.slice(1)) applyEvent(state, event);
  markInterrupted(state.conversation);
  return state;
}

/**
 * A message still 'streaming' or 'running' when read back from disk belongs to a process that died
 * mid-turn. Showing it as stopped (in memory only) keeps the UI from spinning forever on it.
 */
function markInterrupted(conversation: Conversation): void {
  conversation.messages = conversation.messages.map((message) => {
    if (message.kind === 'assistant' && message.status === 'streaming') {
      return { ...message, status: 'stopped', error: message.error ?? INTERRUPTED_MESSAGE };
    }
    if (message.kind === 'prompt-run' && message.status === 'running') {
      const steps = message.steps.map((step) => (step.status === 'running' || step.status === 'pending' ? { ...step, status: 'cancelled' as const } : step));
      return { ...message, steps, status: 'stopped', error: message.error ?? INTERRUPTED_MESSAGE };
    }
    if (message.kind === 'agent-turn' && message.status === 'streaming') {
      const toolCalls = message.toolCalls.map((call) =>
        call.status === 'running' || call.status === 'awaiting-approval' ? { ...call, status: 'cancelled' as const } : call,
      );
      return { ...message, toolCalls, status: 'stopped', error: message.error ?? INTERRUPTED_MESSAGE };
    }
    return message;
  });
}

/** The inverse of replayEvents: the whole conversation as a fresh log (to recreate a vanished file). */
export function snapshotEvents(state: ConversationState): ConversationEvent[] {
  const { conversation } = state;
  const title = state.explicitTitle ? conversation.title : undefined;
  const header: ConversationEvent = { type: 'create', v: LOG_FORMAT_VERSION, id: conversation.id, at: conversation.createdAt, title };
  // Stamping every message with updatedAt makes the replayed conversation end with the same updatedAt.
  return [header, ...conversation.messages.map((message): ConversationEvent => ({ type: 'message', at: conversation.updatedAt, message }))];
}

function deriveTitle(messages: readonly ChatMessage[]): string {
  for (const message of messages) {
    const candidate = message.kind === 'user' ? message.text : message.kind === 'prompt-run' ? message.promptTitle : '';
    const title = oneLine(candidate, TITLE_LENGTH);
    if (title) return title;
  }
  return DEFAULT_TITLE;
}

export function summarize(conversation: Conversation): ConversationSummary {
  const last = conversation.messages[conversation.messages.length - 1];
  return {
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    messageCount: conversation.messages.length,
    preview: last ? oneLine(messageText(last), PREVIEW_LENGTH) : '',
  };
}

/** The text a person would read for a message; for an agent run, its answer or else what was asked; for an agent turn, its answer. */
function messageText(message: ChatMessage): string {
  if (message.kind === 'prompt-run') return message.answer || message.promptTitle;
  if (message.kind === 'agent-turn') return agentTurnAnswer(message).answer;
  return message.text;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1).trimEnd() + '…' : flat;
}
