import { ActionPromptError, formatDiagnostic } from '../yaml/diagnostics';
import { resolveRunInputs } from '../actionPrompt/runInputs';
import type { CodewikiEngine } from '../codewikiEngine';
import type { AgentContextRef, AgentToolCall, AgentTurnMessage, AgentTurnProgress, ChatMessage, UserMessage } from '../history/conversationTypes';
import { newMessageId } from '../history';
import type { ContextAttachment } from '../../shared/protocol';
import { cleanMentions, runAgentModeTurn, type AgentModeTurnRequest } from './agentModeTurn';
import { draftKey } from './draftWarmup';
import type { SendOptions } from './sendOptions';
import { SessionDrafts } from './sessionDrafts';
import { runPromptRun } from './promptRun';
import { streamAssistantAnswer } from './chatTurn';
import type { OpenConversation } from './openConversation';
import type { SessionAgents } from './sessionAgents';
import type { SessionApprovals } from './sessionApprovals';
import { agentSettingsOf, type SessionDeps } from './sessionDeps';
import { AttachmentError, buildTurnContext, type TurnContext } from './turnContext';

export type { SendOptions } from './sendOptions';

type AgentModeRequest = Omit<AgentModeTurnRequest, 'conversationId'>;

/**
 * The session's turns: plain chats, agent-mode answers and /agent runs, one at a time. Each goes
 * through the open conversation's save path, so all of them always land in history.
 */
export class SessionTurns {
  private inFlight: AbortController | undefined;
  private readonly drafts: SessionDrafts;

  constructor(
    private readonly deps: SessionDeps,
    private readonly conversation: OpenConversation,
    private readonly approvals: SessionApprovals,
    private readonly agents: SessionAgents,
  ) {
    this.drafts = new SessionDrafts(deps, conversation, agents, (text, options, engine) => this.readContext(text, options, engine, true));
  }

  get busy(): boolean {
    return this.inFlight !== undefined;
  }

  /** Each turn holds the drafts off from its first step to its end (DraftWarmup.hold). */
  sendChat(text: string, options: Omit<SendOptions, 'mentions' | 'openFile'>): Promise<void> {
    return this.drafts.hold(() => this.chat(text, options));
  }

  sendAgent(text: string, options: SendOptions): Promise<void> {
    return this.drafts.hold(() => this.agentMode(text, options), draftKey(text, options));
  }

  retry(messageId: string): Promise<void> {
    return this.drafts.hold(() => this.answerAgain(messageId));
  }

  runActionPrompt(promptId: string, rawInputs: Record<string, unknown>): Promise<void> {
    return this.drafts.hold(() => this.promptRun(promptId, rawInputs));
  }

  private async chat(text: string, options: Omit<SendOptions, 'mentions' | 'openFile'>): Promise<void> {
    let questionForModel: string | undefined;
    if (options.attachments?.length || options.selection) {
      const context = await this.readContext(text, options);
      if (!context) return;
      questionForModel = context.question;
    }
    const { conversationId, user, history } = await this.saveQuestion(text);
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversationId), conversationId, history, user, signal, undefined, questionForModel));
  }

  private async agentMode(text: string, options: SendOptions): Promise<void> {
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: agentModeUnavailable(unavailable) });
    const context = await this.readContext(text, options, engine);
    if (!context) return;
    const { conversationId, user, history } = await this.saveQuestion(text);
    await this.runAgentMode(engine, conversationId, {
      user,
      history,
      question: context.question,
      context: context.refs,
      mentions: cleanMentions(options.mentions),
      openFile: options.openFile,
    });
  }

  /** See SessionDrafts.warm: the question `text` would send, computed ahead of Enter where that costs and reveals nothing. */
  warmDraft(text: string, options: SendOptions): Promise<boolean> {
    return this.drafts.warm(text, options, () => this.busy);
  }

  /** Runs the fixed prompt's warm-up with no draft around it (DraftWarmup.hold). */
  withoutDrafts<T>(work: () => Promise<T>): Promise<T> {
    return this.drafts.hold(work);
  }

  private async answerAgain(messageId: string): Promise<void> {
    const conversation = this.conversation.current();
    const index = conversation?.messages.findIndex((m) => m.id === messageId) ?? -1;
    const user = conversation?.messages
      .slice(0, index)
      .reverse()
      .find((m): m is UserMessage => m.kind === 'user');
    if (!conversation || index < 0 || !user) return this.deps.post({ type: 'error/show', message: 'Nothing to retry.' });
    const history = conversation.messages.slice(0, conversation.messages.indexOf(user));
    const target = conversation.messages[index]!;
    if (target.kind === 'agent-turn') return this.retryAgentTurn(conversation.id, target, user, history);
    await this.withAbort((signal) => streamAssistantAnswer(this.chatDeps(conversation.id), conversation.id, history, user, signal, messageId));
  }

  /** An /agent run of an action prompt, its inputs checked first. */
  private async promptRun(promptId: string, rawInputs: Record<string, unknown>): Promise<void> {
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: unavailable ?? 'Action prompts are not available.' });
    const entry = engine.catalog.entry(promptId);
    if (!entry?.prompt) {
      const why = entry ? entry.diagnostics.map(formatDiagnostic).join('\n') : `unknown action prompt "${promptId}"`;
      return this.deps.post({ type: 'error/show', message: `Cannot run ${promptId}: ${why}` });
    }
    let inputs: Record<string, unknown>;
    try {
      inputs = await resolveRunInputs(entry.prompt, rawInputs, engine.workspace);
    } catch (error) {
      const message = error instanceof ActionPromptError ? error.diagnostics.map((d) => d.message).join('\n') : (error as Error).message;
      return this.deps.post({ type: 'error/show', message });
    }
    const conversationId = await this.conversation.ensure(entry.prompt.title);
    await this.withAbort((signal) =>
      runPromptRun(
        { engine, save: (m) => this.conversation.save(conversationId, m), post: this.deps.post, runLogDir: this.deps.runLogDir },
        conversationId,
        entry.prompt!,
        inputs,
        signal,
      ),
    );
  }

  stop(): void {
    this.drafts.stop();
    this.inFlight?.abort();
  }

  /** The question saved as the open conversation's next message, with the conversation before it. */
  private async saveQuestion(text: string): Promise<{ conversationId: string; user: UserMessage; history: ChatMessage[] }> {
    const conversationId = await this.conversation.ensure(text);
    const user: UserMessage = { kind: 'user', id: newMessageId(), createdAt: new Date().toISOString(), text };
    const history = this.conversation.current()?.messages ?? [];
    await this.conversation.save(conversationId, user);
    return { conversationId, user, history };
  }

  /** One turn at a time: a new turn stops the previous one first. */
  private async withAbort<T>(turn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    try {
      return await turn(controller.signal);
    } finally {
      if (this.inFlight === controller) this.inFlight = undefined;
    }
  }

  private async retryAgentTurn(conversationId: string, turn: AgentTurnMessage, user: UserMessage, history: ChatMessage[]): Promise<void> {
    if (turn.status === 'streaming') return this.deps.post({ type: 'error/show', message: 'That answer is still running; stop it first.' });
    const { engine, unavailable } = await this.deps.engine();
    if (!engine) return this.deps.post({ type: 'error/show', message: agentModeUnavailable(unavailable) });
    const context = await this.readContext(user.text, { attachments: (turn.context ?? []).map(attachmentOf) }, engine);
    if (!context) return;
    await this.runAgentMode(engine, conversationId, {
      user,
      history,
      question: context.question,
      context: context.refs,
      mentions: turn.mentions ?? [],
      openFile: turn.openFile,
      reuseId: turn.id,
    });
  }

  private async runAgentMode(engine: CodewikiEngine, conversationId: string, request: AgentModeRequest): Promise<void> {
    const settings = agentSettingsOf(this.deps);
    await this.withAbort(async (signal) => {
      const deps = {
        agent: () => this.agents.agent(engine, settings),
        describeError: (error: unknown) => engine.models.describeError(error, 'main'),
        save: (message: ChatMessage) => {
          if (message.kind === 'agent-turn') this.approvals.turnSaved(conversationId, message.id);
          return this.conversation.save(conversationId, message);
        },
        saveCall: (turnId: string, call: AgentToolCall, progress: AgentTurnProgress) => this.conversation.saveCall(conversationId, turnId, call, progress),
        post: this.deps.post,
        notes: this.agents.notes(engine, settings),
        contextWindow: async () => engine.models.contextSize?.('main'),
      };
      try {
        await runAgentModeTurn(deps, { conversationId, ...request }, signal);
      } finally {
        this.approvals.turnEnded(conversationId);
      }
    });
  }

  /** The question with its attachments read, or undefined after telling the user why it cannot be sent. */
  private async readContext(text: string, options: SendOptions, engine?: CodewikiEngine, quiet = false): Promise<TurnContext | undefined> {
    const attachments = [...(options.attachments ?? []), ...(options.selection ? [{ kind: 'selection' as const, ...options.selection }] : [])];
    if (attachments.length === 0) return { question: text, refs: [] };
    const ready = engine ?? (await this.deps.engine()).engine;
    try {
      return await buildTurnContext(text, attachments, ready?.workspace, undefined, ready?.codeIndex);
    } catch (error) {
      if (!(error instanceof AttachmentError)) throw error;
      if (quiet) return undefined;
      this.deps.post({ type: 'error/show', message: error.message });
      return undefined;
    }
  }

  private chatDeps(conversationId: string) {
    const models = this.deps.models();
    return {
      model: () => models.model('main'),
      modelName: models.modelName('main'),
      describeError: (error: unknown) => models.describeError(error, 'main'),
      save: (message: ChatMessage) => this.conversation.save(conversationId, message),
      post: this.deps.post,
      contextWindow: async () => models.contextSize?.('main'),
    };
  }
}

function agentModeUnavailable(why: string | undefined): string {
  return `Agent mode cannot run here: ${why ?? 'the workspace tools are not available.'} Chat mode still answers without workspace tools.`;
}

function attachmentOf(ref: AgentContextRef): ContextAttachment {
  if (ref.kind === 'codebase') return { kind: 'codebase' };
  return ref.kind === 'selection' && ref.startLine !== undefined
    ? { kind: 'selection', path: ref.path, startLine: ref.startLine, endLine: ref.endLine ?? ref.startLine }
    : { kind: 'file', path: ref.path };
}
