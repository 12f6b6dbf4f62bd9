import type { CodewikiEngine } from '../codewikiEngine';
import { cleanMentions } from './agentModeTurn';
import { computeDraft, draftKey, DraftWarmup } from './draftWarmup';
import type { OpenConversation } from './openConversation';
import type { SessionAgents } from './sessionAgents';
import { agentSettingsOf, type SessionDeps } from './sessionDeps';
import type { SendOptions } from './sendOptions';
import type { TurnContext } from './turnContext';

/**
 * The session's drafts: which questions are computed ahead of Enter (DraftWarmup), and only where that costs nothing
 * and reveals nothing: a llama-server on this machine, agent mode, no turn in flight, the setting on.
 */
export class SessionDrafts {
  private readonly warmup = new DraftWarmup();

  constructor(
    private readonly deps: SessionDeps,
    private readonly conversation: OpenConversation,
    private readonly agents: SessionAgents,
    /** The question with its attachments read, as the turn would read them; undefined when one cannot be read. */
    private readonly readContext: (text: string, options: SendOptions, engine: CodewikiEngine) => Promise<TurnContext | undefined>,
  ) {}

  /**
   * Computes the agent-mode question `text` would send. Resolves whether it was computed; rejects when the server
   * failed. Nothing is saved or shown; a draft whose attachment cannot be read is skipped.
   */
  async warm(text: string, options: SendOptions, busy: () => boolean): Promise<boolean> {
    const ticket = this.warmup.ticket();
    const settings = agentSettingsOf(this.deps);
    if (busy() || !text.trim() || settings.mode !== 'agent' || settings.prefillDrafts === false) return false;
    const { engine } = await this.deps.engine();
    const slots = engine?.models.promptCacheSlots?.('main');
    if (!engine || !slots?.onThisMachine || !(await slots.available().catch(() => false))) return false;
    const context = await this.readContext(text, options, engine).catch(() => undefined);
    if (!context || busy()) return false;
    const conversation = this.conversation.current();
    const draft = {
      text,
      question: context.question,
      context: context.refs,
      mentions: cleanMentions(options.mentions),
      openFile: options.openFile,
      history: conversation?.messages ?? [],
      conversationId: conversation?.id,
    };
    return this.warmup.warm(ticket, draftKey(text, options), (signal) =>
      computeDraft(this.agents.agent(engine, settings), draft, async () => engine.models.contextSize?.('main'), signal),
    );
  }

  /** See DraftWarmup.hold. */
  hold<T>(work: () => Promise<T>, keep?: string): Promise<T> {
    return this.warmup.hold(work, keep);
  }

  stop(): void {
    this.warmup.stop();
  }
}
