import * as vscode from 'vscode';
import type { StateManager } from '../core/history';
import type { AgentModeSettings } from '../core/session/agentModeSettings';
import type { ConversationSession } from '../core/session/conversationSession';
import { suggestPaths } from '../core/workspace/pathSuggestions';
import { type HostToWebview, type WebviewToHost, webviewToHostSchema } from '../shared/protocol';
import { handleAgentModeMessage } from './agentModeMessages';
import { editorActions } from './editorActions';
import type { ProposedChanges } from './proposedChanges';
import { openRunLogView } from './runLogView';
import type { WorkspaceEngine } from './workspaceEngine';
import { activeFolder, workspacePathOf } from './workspaceFolders';

/** The Settings editor's filter for this extension's settings (publisher.name in package.json). */
export const CODEWIKI_SETTINGS_QUERY = '@ext:codewiki.codewiki';

export interface RouterDeps {
  session: ConversationSession;
  history: StateManager;
  engine: WorkspaceEngine;
  proposedChanges: ProposedChanges;
  agentSettings(): AgentModeSettings;
  post(message: HostToWebview): void;
  sendInitialState(): Promise<void>;
  log(line: string): void;
}

/**
 * Everything the webview asks for. Messages are untrusted input (security.md #6): each is
 * validated against the protocol schema and anything else is dropped and logged; no message
 * names a command, a file path or a setting the host would use as given.
 */
export class HostMessageRouter {
  constructor(private readonly deps: RouterDeps) {}

  async handle(raw: unknown): Promise<void> {
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.deps.log(`Ignored an invalid message from the webview: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`);
      return;
    }
    try {
      await this.route(parsed.data);
    } catch (error) {
      this.deps.post({ type: 'error/show', message: (error as Error).message });
    }
  }

  private async route(message: WebviewToHost): Promise<void> {
    const { session, history, post } = this.deps;
    switch (message.type) {
      case 'webview/ready':
        return this.deps.sendInitialState();
      case 'chat/send':
        return session.sendChat(message.text);
      case 'chat/stop':
        return session.stop();
      case 'chat/retry':
        return session.retry(message.messageId);
      case 'promptRun/start':
        return session.runPrompt(message.promptId, message.inputs);
      case 'conversation/new':
        await session.newConversation();
        return this.deps.sendInitialState();
      case 'history/request':
        return post({ type: 'history/list', items: message.query ? history.search(message.query) : history.listConversations(), query: message.query });
      case 'history/open': {
        const conversation = await session.open(message.id);
        return conversation ? post({ type: 'conversation/load', conversation }) : post({ type: 'error/show', message: 'That conversation no longer exists.' });
      }
      case 'history/rename':
        await history.rename(message.id, message.title);
        return post({ type: 'history/list', items: history.listConversations(), query: '' });
      case 'history/delete': {
        if (await session.deleteConversation(message.id)) await this.deps.sendInitialState();
        return post({ type: 'history/list', items: history.listConversations(), query: '' });
      }
      case 'history/export':
        return editorActions.newFile(history.exportMarkdown(message.id), 'markdown');
      case 'code/copy':
        return editorActions.copy(message.text);
      case 'code/insert':
        return editorActions.insertAtCursor(message.text);
      case 'code/newFile':
        return editorActions.newFile(message.text, message.language);
      case 'answer/save':
        return editorActions.saveToFile(message.text);
      case 'runLog/open':
        return this.openRunLog(message.runId);
      case 'path/suggest': {
        const { engine } = await this.deps.engine.get();
        return post({ type: 'path/suggestions', requestId: message.requestId, items: engine ? await suggestPaths(engine.workspace, message.prefix) : [] });
      }
      case 'path/browse':
        return post({ type: 'path/picked', requestId: message.requestId, path: await this.browse(message.kind) });
      case 'settings/open':
        // Every CodeWiki setting, not just the one named: the endpoint needs the model beside it (and a tool model may follow).
        await vscode.commands.executeCommand('workbench.action.openSettings', CODEWIKI_SETTINGS_QUERY);
        return;
      case 'apiKey/set':
        await vscode.commands.executeCommand('codewiki.setApiKey');
        return;
      case 'localModel/start':
        await vscode.commands.executeCommand('codewiki.startLocalModel');
        return;
      case 'tools/openTester':
        await vscode.commands.executeCommand('codewiki.openToolTester');
        return;
      case 'agent/send':
      case 'agent/draft':
      case 'agent/approve':
      case 'tools/request':
      case 'tools/toggle':
      case 'tools/setEnabled':
      case 'tools/setEnableNewTools':
      case 'chat/setMode':
      case 'file/open':
      case 'editor/diff':
      case 'selection/request':
        return handleAgentModeMessage(message, this.deps);
    }
  }

  /** Only run logs recorded in the open conversation can be opened; the webview names a run, not a path. */
  private async openRunLog(runId: string): Promise<void> {
    const run = this.deps.session.current()?.messages.find((m) => m.id === runId);
    if (run?.kind !== 'prompt-run' || !run.runLogPath) throw new Error('No run log was recorded for that run.');
    await openRunLogView(run.runLogPath);
  }

  /** Starts in the active editor's folder; the path comes back as the file tools write it (`lib/…` in the folder lib). */
  private async browse(kind: 'file' | 'folder' | 'any'): Promise<string | undefined> {
    const folder = activeFolder()?.uri;
    const picked = await vscode.window.showOpenDialog({
      defaultUri: folder,
      canSelectFiles: kind !== 'folder',
      canSelectFolders: kind !== 'file',
      canSelectMany: false,
    });
    if (!picked?.[0]) return undefined;
    const path = workspacePathOf(picked[0]);
    if (path === undefined) throw new Error('Pick something inside the workspace.');
    return path;
  }
}
