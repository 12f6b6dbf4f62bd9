import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { disabledCodeIndex } from '../../src/core/codebaseIndex/disabledCodeIndex';
import { createCodewikiEngine, type CodewikiEngine } from '../../src/core/codewikiEngine';
import { StateManager, type AgentTurnMessage, type ChatMessage } from '../../src/core/history';
import type { AgentModeSettings } from '../../src/core/session/agentModeSettings';
import { ConversationSession, type SessionDeps } from '../../src/core/session/conversationSession';
import type { HostToWebview } from '../../src/shared/protocol';
import { modelsFor, tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';

export const BUILTIN = join(__dirname, '..', '..', 'action-prompts');

export type Posted<T extends HostToWebview['type']> = Extract<HostToWebview, { type: T }>;

/**
 * An agent-mode session as the extension builds it: a real history folder, a real workspace folder,
 * the engine over both and a scripted OpenAI server. `onPost` lets a test act as the webview (answer
 * an approval card, press Stop) when a message arrives.
 */
export class AgentModeFixture {
  readonly server = new OpenAiTestServer();
  readonly posted: HostToWebview[] = [];
  readonly ws: ReturnType<typeof tempWorkspace>;
  readonly storage = mkdtempSync(join(tmpdir(), 'codewiki-state-'));
  history!: StateManager;
  engine!: CodewikiEngine;
  session!: ConversationSession;
  onPost: (message: HostToWebview) => void = () => {};
  settings: AgentModeSettings | undefined;

  constructor(
    files: Record<string, string>,
    private readonly withIndex = false,
  ) {
    this.ws = tempWorkspace(files);
  }

  async start(overrides: Partial<SessionDeps> = {}): Promise<this> {
    await this.server.start();
    this.history = (await StateManager.open(this.storage)).manager;
    // The code index is off (codewiki.index.enabled: false) unless a test asks for it: its search before each
    // turn is covered in codebaseAttachment.test.ts and would only get in the way of tests about other parts.
    this.engine = await createCodewikiEngine({
      workspaceRoot: this.ws.root,
      builtinPromptsDir: BUILTIN,
      models: modelsFor(this.server.url),
      codeIndex: this.withIndex ? undefined : () => disabledCodeIndex('the code index is off in this test'),
    });
    this.session = this.newSession(overrides);
    return this;
  }

  newSession(overrides: Partial<SessionDeps> = {}): ConversationSession {
    return new ConversationSession({
      history: this.history,
      models: () => modelsFor(this.server.url),
      engine: async () => ({ engine: this.engine }),
      runLogDir: join(this.storage, 'runs'),
      post: (message) => {
        this.posted.push(message);
        this.onPost(message);
      },
      agentSettings: () =>
        this.settings ?? { mode: 'agent', toggles: { enabled: true, perTool: {}, defaultForNewTools: true }, maxIterations: 12, subagents: {}, notes: [] },
      ...overrides,
    });
  }

  of<T extends HostToWebview['type']>(type: T): Array<Posted<T>> {
    return this.posted.filter((message): message is Posted<T> => message.type === type);
  }

  /** The history as a newly opened window sees it. */
  async reopen(): Promise<ChatMessage[]> {
    await this.history.dispose();
    this.history = (await StateManager.open(this.storage)).manager;
    const [summary] = this.history.listConversations();
    return summary ? this.history.getConversation(summary.id)!.messages : [];
  }

  async lastTurn(): Promise<AgentTurnMessage> {
    const turn = (await this.reopen()).findLast((message) => message.kind === 'agent-turn');
    if (!turn || turn.kind !== 'agent-turn') throw new Error('no agent turn in history');
    return turn;
  }

  async close(): Promise<void> {
    this.session?.stop();
    await this.history?.dispose();
    await this.server.close();
    this.ws.cleanup();
    rmSync(this.storage, { recursive: true, force: true });
  }
}

/** The `role: "tool"` messages the model was sent in request `index`, as text. */
export function toolResults(server: OpenAiTestServer, index: number): string[] {
  return server
    .messagesOf(index)
    .filter((message) => message.role === 'tool')
    .map((message) => (typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join('')));
}
