import type { AgentToolCall, AgentTurnMessage, AgentTurnProgress } from '../history/conversationTypes';

/** Saves one call of a turn with the turn's progress since the call saved before it. */
export type SaveAgentCall = (turnId: string, call: AgentToolCall, progress: AgentTurnProgress) => Promise<void>;

/**
 * Saves an agent turn's calls one record at a time while it runs. Each record carries what the turn
 * gained since the previous one (answer and thinking text added, new warnings, the latest totals),
 * so a crash keeps the narration and the counts as well as the calls, and no record repeats what an
 * earlier one holds: saving stays proportional to the call, however long the turn grows.
 */
export class AgentTurnJournal {
  private answerSaved = 0;
  private answerStartSaved: number | undefined;
  private reasoningSaved = 0;
  private warningsSaved = 0;
  private modelSaved: string | undefined;
  private fallbackSaved: string | undefined;

  constructor(
    private readonly turn: AgentTurnMessage,
    private readonly save: SaveAgentCall,
  ) {}

  /** The call as it is now; the store applies it at once, in the order of these calls. */
  record(call: AgentToolCall): Promise<void> {
    return this.save(this.turn.id, structuredClone(call), this.progressSinceLastRecord());
  }

  private progressSinceLastRecord(): AgentTurnProgress {
    const { turn } = this;
    const progress: AgentTurnProgress = {};
    // The answer and the thinking only grow while the turn runs (the final save writes the cleaned answer).
    if (turn.answer.length > this.answerSaved) progress.answerAdded = turn.answer.slice(this.answerSaved);
    if (turn.answerStart !== this.answerStartSaved && turn.answerStart !== undefined) progress.answerStart = turn.answerStart;
    if ((turn.reasoning?.length ?? 0) > this.reasoningSaved) progress.reasoningAdded = turn.reasoning!.slice(this.reasoningSaved);
    if ((turn.warnings?.length ?? 0) > this.warningsSaved) progress.warningsAdded = turn.warnings!.slice(this.warningsSaved);
    if (turn.tokens) progress.tokens = { ...turn.tokens };
    if (turn.iterations !== undefined) progress.iterations = turn.iterations;
    if (turn.model !== this.modelSaved && turn.model !== undefined) progress.model = turn.model;
    if (turn.fallback !== this.fallbackSaved && turn.fallback !== undefined) progress.fallback = turn.fallback;
    this.answerSaved = turn.answer.length;
    this.answerStartSaved = turn.answerStart;
    this.reasoningSaved = turn.reasoning?.length ?? 0;
    this.warningsSaved = turn.warnings?.length ?? 0;
    this.modelSaved = turn.model;
    this.fallbackSaved = turn.fallback;
    return progress;
  }
}
