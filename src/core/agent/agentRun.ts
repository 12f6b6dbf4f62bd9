import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { CodeIndex } from '../codebaseIndex/codeIndexTypes';
import { waitForIndex } from '../codebaseIndex/waitForIndex';
import type { AgentCaps, AgentOutputLimits } from './agentCaps';
import type { AgentEventBody, AgentStopReason } from './agentEvents';
import { agentGuidance } from './agentGuidance';
import { asksWhere, listCopyWatch, type ListCopyWatch } from './fileAnswerCheck';
import { placedAnswerCut } from './placedAnswerCut';
import type { AgentLoopDependencies, AgentRunRequest } from './agentLoopTypes';
import { createRunState, type AgentRunState } from './agentRunState';
import type { AgentChatModel, AnswerCut } from './streamTurn';
import { indexMatchesBeforeQuestion, indexSearchExchange, INDEX_CALL_ID, startFromIndex, wikiOverviewFor } from './startFromIndex';
import { buildSystemPrompt, folderPathsNote, openFileNote, workspaceName } from './systemPrompt';
import { instructionsSection, readProjectInstructions } from './projectInstructions';
import { workspaceOverview, type WorkspaceOverview } from './workspaceOverview';
import type { JsonSchema } from './textProtocol/jsonSchemaTypes';
import { ToolProtocolChoice } from './textProtocol/toolProtocolChoice';
import { nativeHistoryAsText } from './textProtocol/toolResultsMessage';

export interface AgentRunSetup {
  deps: AgentLoopDependencies;
  caps: AgentCaps;
  limits: AgentOutputLimits;
  schemas: ReadonlyMap<string, JsonSchema>;
  request: AgentRunRequest;
  emit(event: AgentEventBody): void;
}

/** Why the loop stopped going round. */
export interface RunStop {
  reason: AgentStopReason;
  /** The tool whose repeated call stopped the run. */
  repeatedTool?: string;
}

const WALL_CLOCK = Symbol('wall-clock');

/**
 * One run of the loop, shared by its parts: what stops it (the user, the wall clock), the tool
 * protocol it speaks, and its conversation with the model from the system prompt on.
 */
export class AgentRun {
  readonly deps: AgentLoopDependencies;
  readonly caps: AgentCaps;
  readonly schemas: ReadonlyMap<string, JsonSchema>;
  readonly request: AgentRunRequest;
  readonly state: AgentRunState;
  readonly userSignal: AbortSignal;
  readonly wallClock: AbortSignal;
  /** The user's stop and the wall clock together: what model and tool calls are given. */
  readonly signal: AbortSignal;
  /** The system prompt as first sent; the plan-then-answer fallback reuses it. */
  system = '';
  /** `@tool` mentions still to force with tool_choice, one per native turn. */
  mentions: string[] = [];
  /** Set before the fallback starts, so a run whose fallback then fails still reports it. */
  usedFallback = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private overview: WorkspaceOverview = {};
  /** The project's instructions section of the system prompt, read when the run opens. */
  private instructions: string | undefined;
  private indexSearchMs = 0;
  /** Files the index's candidates showed the model with the question. */
  private indexedFiles: string[] = [];
  private matchesList = '';
  /** Watches a small model's where-is answers for a copy of the index's matches (undefined: no watch). */
  private copyWatch: ListCopyWatch | undefined;

  /** The file layout the system prompt shows, when it shows one instead of the repo map (undefined without tools or a workspace). */
  get layoutText(): string | undefined {
    return this.overview.layout;
  }

  /** Files the model was shown with the question (from the index): naming them is not guessing. */
  get filesShown(): readonly string[] {
    return this.indexedFiles;
  }

  /** The index's matches as the model was shown them with the question ('' when there were none). */
  get matchesShown(): string {
    return this.matchesList;
  }

  /** Whether the question asks where something is ("Where…", "Which file…"). */
  get asksWhere(): boolean {
    return asksWhere(this.request.indexQuery ?? this.request.question);
  }

  /**
   * The watch for copies of the index's matches: a small model (the compact tool set) shown them for a where-is
   * question. A large model's numbered answer to "Which files…" is an answer.
   */
  get listCopyWatch(): ListCopyWatch | undefined {
    return this.copyWatch;
  }

  /**
   * Where a streaming answer of a small model to a where-is question ends early (streamTurn.ts): after the sentence
   * that names the place, or before a copy of the matches goes on to their second entry; undefined when nothing is
   * watched.
   */
  get answerCut(): ((answer: string) => AnswerCut | undefined) | undefined {
    const watch = this.copyWatch;
    // The files a small model's where-is answer was shown: once it has named one, it ends (placedAnswerCut.ts).
    const files = this.deps.tools.compact && this.asksWhere ? this.indexedFiles : [];
    if (!watch && files.length === 0) return undefined;
    return (answer) => {
      // A copy of the matches names a file in its first entry: it ends with that entry, lines and all.
      if (watch?.copied(answer)) return watch.cut(answer);
      return files.length ? placedAnswerCut(answer, files) : undefined;
    };
  }

  private bound: AgentChatModel | undefined;

  static async start(setup: AgentRunSetup): Promise<AgentRun> {
    const { deps } = setup;
    const canBindTools = typeof deps.model.bindTools === 'function';
    const protocol = await ToolProtocolChoice.start({
      setting: deps.toolProtocol ?? 'auto',
      canBindTools,
      memory: deps.protocolMemory,
      modelName: deps.modelName,
      endpoint: deps.endpoint,
      emit: setup.emit,
    });
    // The text protocol needs nothing from the client: the tools travel in the system prompt.
    return new AgentRun(setup, protocol, deps.tools.size > 0 && (canBindTools || protocol.isText));
  }

  private constructor(
    setup: AgentRunSetup,
    readonly protocol: ToolProtocolChoice,
    /** Whether this run offers tools at all, natively or in the prompt. */
    readonly withTools: boolean,
  ) {
    this.deps = setup.deps;
    this.caps = setup.caps;
    this.schemas = setup.schemas;
    this.request = setup.request;
    const wallClock = new AbortController();
    this.timer = setTimeout(() => wallClock.abort(WALL_CLOCK), this.caps.wallClockMs);
    this.wallClock = wallClock.signal;
    this.userSignal = this.request.signal ?? new AbortController().signal;
    this.signal = AbortSignal.any([this.userSignal, this.wallClock]);
    this.state = createRunState(setup.emit, {
      tools: this.deps.tools,
      approvals: this.deps.approvals,
      conversationId: this.request.conversationId,
      emit: setup.emit,
      signal: this.signal,
      configurable: this.deps.toolConfigurable,
      parentCallId: this.request.parentCallId,
      ...setup.limits,
    });
  }

  /**
   * The system prompt, the earlier turns and the question, with its `@tool` mentions to force. A top-level
   * run with tools starts from the code index: the system prompt carries its repo map, and after the
   * question comes the index's search for it (after the fixed prefix, so the server's cache of the prefix
   * keeps serving).
   */
  async open(): Promise<void> {
    const { deps, request, state } = this;
    const index = this.withTools && !request.parentCallId ? deps.codeIndex : undefined;
    const query = request.indexQuery ?? request.question;
    let matches = '';
    let background = '';
    if (index && request.withIndexContext !== false) {
      const started = performance.now();
      const found = await startFromIndex(index, query, this.signal, state.emit, deps.tools.compact ? 'compact' : 'full');
      matches = found.list;
      this.matchesList = found.list;
      if (deps.tools.compact && this.asksWhere) this.copyWatch = listCopyWatch(found.list);
      background = found.list && (await wikiOverviewFor(deps.wiki, query, found.files));
      this.indexedFiles = found.files;
      this.indexSearchMs = performance.now() - started;
    }
    const history = request.history ?? [];
    state.messages.push(await this.systemMessage(index), ...(this.protocol.isText ? nativeHistoryAsText(history) : history));
    state.turnStart = state.messages.length;
    this.mentions = this.withTools ? this.forcedTools(request.mentions ?? []) : [];
    // tool_choice cannot force a tool in text; the question asks for it instead.
    const textMentions = this.protocol.isText && this.mentions.length ? `\n\n(Start by calling ${this.mentions.splice(0).join(', then ')}.)` : '';
    const asSearch = matches !== '' && this.deps.tools.has('search_code');
    state.messages.push(
      new HumanMessage(
        (matches && !asSearch ? indexMatchesBeforeQuestion(matches, background) : '') + openFileNote(request.openFile) + request.question + textMentions,
      ),
    );
    if (asSearch) this.addIndexSearch(query, matches, background);
  }

  /** The fixed head alone (the system prompt, with the tools bound by `modelForTurn`), as `open` begins every top-level run: what a warm-up computes ahead of the first question. */
  async openPrefix(): Promise<BaseMessage[]> {
    const index = this.withTools ? this.deps.codeIndex : undefined;
    // The repo map of a partial index is not the one the questions will get: wait as a question would.
    if (index) await waitForIndex(index, { signal: this.signal });
    return [await this.systemMessage(index)];
  }

  private async systemMessage(index: CodeIndex | undefined): Promise<SystemMessage> {
    if (this.withTools) this.overview = await workspaceOverview(this.deps.workspace, index, this.deps.modelName, this.signal);
    const files = this.deps.workspace ? await readProjectInstructions(this.deps.workspace) : [];
    this.instructions = instructionsSection(files);
    if (files.length && !this.request.parentCallId) {
      this.state.emit({ type: 'instructions', files: files.map(({ path, tokens, truncated }) => ({ path, tokens, truncated })) });
    }
    this.system = this.systemPrompt();
    return new SystemMessage(this.system);
  }

  /** The index's search, as a search_code call already made and answered: in the history, and to the user as a call. */
  private addIndexSearch(query: string, matches: string, background: string): void {
    const exchange = indexSearchExchange(query, matches, background);
    this.state.messages.push(...(this.protocol.isText ? nativeHistoryAsText(exchange) : exchange));
    const output = String(exchange[1]!.content);
    const args = { query };
    this.state.emit({
      type: 'tool-call-start',
      id: INDEX_CALL_ID,
      iteration: 0,
      tool: 'search_code',
      displayName: 'Search code',
      kind: 'read',
      argsSummary: `query=${JSON.stringify(query.length > 60 ? `${query.slice(0, 59)}…` : query)}`,
      args,
    });
    this.state.emit({
      type: 'tool-call-end',
      id: INDEX_CALL_ID,
      iteration: 0,
      tool: 'search_code',
      status: 'ok',
      durationMs: this.indexSearchMs,
      tokens: { input: 0, output: 0, total: 0 },
      output,
    });
  }

  /** The model with the tools bound (once per run), or as is when the tools travel in the prompt or there are none. */
  modelForTurn(): AgentChatModel {
    if (this.protocol.isText || !this.withTools) return this.deps.model;
    return (this.bound ??= this.deps.model.bindTools!(this.deps.tools.definitions) as AgentChatModel);
  }

  /** Switches to the text protocol: the history so far is rewritten in its format, under a system prompt that describes the tools. */
  async useText(reason: string): Promise<void> {
    await this.protocol.switchToText(reason);
    this.state.messages = nativeHistoryAsText(this.state.messages);
    this.state.messages[0] = new SystemMessage(this.systemPrompt());
  }

  /** A failure while only the wall clock had run out ends the run as capped; anything else goes on up. */
  wallClockStop(failure: unknown): RunStop {
    if (this.userSignal.aborted || !this.wallClock.aborted) throw failure;
    return { reason: 'wall-clock' };
  }

  stopWallClock(): void {
    clearTimeout(this.timer);
  }

  describe(error: unknown): string {
    if (this.deps.describeModelError) return this.deps.describeModelError(error);
    return (error as Error)?.message ?? String(error);
  }

  private systemPrompt(): string {
    const { deps } = this;
    return buildSystemPrompt({
      workspaceName: deps.workspace ? workspaceName(deps.workspace) : 'workspace',
      layout: this.overview.layout,
      repoMap: this.overview.repoMap,
      tools: this.withTools ? deps.tools.names : [],
      guidance: agentGuidance(deps.modelName, deps.adapter, this.protocol.isText ? 'text' : 'native', deps.tools.definitions),
      instructions: this.instructions,
      folders: folderPathsNote(deps.workspace),
    });
  }

  /** Known mentioned tools, in order; unknown or disabled ones are reported and dropped. */
  private forcedTools(mentions: string[]): string[] {
    const forced: string[] = [];
    for (const mention of mentions) {
      const name = mention.replace(/^@/, '');
      const found = this.deps.tools.lookup(name);
      if (found.found) forced.push(name);
      else this.state.emit({ type: 'warning', message: `@${name} was not used: ${found.error}` });
    }
    return forced;
  }
}
