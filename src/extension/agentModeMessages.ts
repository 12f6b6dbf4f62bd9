import * as vscode from 'vscode';
import type { AgentModeSettings } from '../core/session/agentModeSettings';
import type { ConversationSession, SendOptions } from '../core/session/conversationSession';
import type { HostToWebview, WebviewToHost } from '../shared/protocol';
import { currentSelection, editorAttachment, openEditorFile, openWorkspaceFile } from './editorContext';
import { userObjectSetting, writeUserSetting } from './extensionSettings';
import type { ProposedChanges } from './proposedChanges';
import type { WorkspaceEngine } from './workspaceEngine';

export type AgentModeMessage = Extract<
  WebviewToHost,
  {
    type:
      | 'agent/send'
      | 'agent/draft'
      | 'agent/approve'
      | 'tools/request'
      | 'tools/toggle'
      | 'tools/setEnabled'
      | 'tools/setEnableNewTools'
      | 'chat/setMode'
      | 'file/open'
      | 'editor/diff'
      | 'selection/request';
  }
>;

export interface AgentModeDeps {
  session: ConversationSession;
  engine: WorkspaceEngine;
  proposedChanges: ProposedChanges;
  agentSettings(): AgentModeSettings;
  post(message: HostToWebview): void;
  /** The output channel: a draft the local model failed to compute is worth a line there, never a message in the chat. */
  log?(line: string): void;
}

const SELECTION_TOKEN = /(^|\s)#selection\b/;
/** `#file:src/a.ts` typed in the text, as well as chips: each becomes a file attachment. */
const FILE_TOKEN = /(?:^|\s)#file:(\S+)/g;

/**
 * The webview's agent-mode messages, already validated against the protocol. Settings the view
 * changes are written to the user settings only; paths it names are resolved inside the workspace.
 */
export async function handleAgentModeMessage(message: AgentModeMessage, deps: AgentModeDeps): Promise<void> {
  const { session, post } = deps;
  switch (message.type) {
    case 'agent/send': {
      const options = sendOptions(message);
      // The webview asks for the selection (`selection/request`) and sends it as an attachment; it is read
      // here again for a webview that did not get an answer in time (the same lines are attached once).
      if (SELECTION_TOKEN.test(message.text)) {
        const current = currentSelection();
        if ('problem' in current) return post({ type: 'error/show', message: current.problem });
        options.selection = current.selection;
      }
      const mode = message.mode ?? deps.agentSettings().mode;
      return mode === 'chat' ? session.sendChat(message.text, options) : session.sendAgent(message.text, options);
    }
    case 'agent/draft':
      // The selection is read at send time only: a draft that names it is not computed ahead.
      if (SELECTION_TOKEN.test(message.text)) return;
      await session
        .warmDraft(message.text, sendOptions(message))
        .catch((error: unknown) => deps.log?.(`Prompt cache: the draft question could not be computed ahead: ${(error as Error).message}`));
      return;
    case 'agent/approve':
      return session.answerApproval(message.approvalId, message.decision, message.reason);
    case 'tools/request':
      return post({ type: 'tools/list', ...(await session.toolsState()) });
    case 'tools/toggle': {
      const tool = (await session.toolsState()).tools.find((candidate) => candidate.name === message.name);
      if (!tool?.agentCallable) return post({ type: 'error/show', message: `${message.name} is not a tool the agent can use.` });
      await writeUserSetting('tools.toggles', { ...userObjectSetting('tools.toggles'), [message.name]: message.enabled });
      return;
    }
    case 'tools/setEnabled':
      return writeUserSetting('tools.enabled', message.enabled);
    case 'tools/setEnableNewTools':
      return writeUserSetting('tools.enableNewTools', message.enabled);
    case 'chat/setMode':
      await writeUserSetting('chat.mode', message.mode);
      return post({ type: 'chat/mode', mode: message.mode });
    case 'file/open': {
      const { engine } = await deps.engine.get();
      return openWorkspaceFile(message.path, message.line, engine?.workspace);
    }
    case 'editor/diff':
      return deps.proposedChanges.show(message.approvalId, await session.proposedChange(message.approvalId));
    case 'selection/request':
      return post({ type: 'selection/current', requestId: message.requestId, ...currentSelection() });
  }
}

/** Attachments (chips and `#file:` typed in the text), mentions and the editor's file, the same for a question and its draft. */
function sendOptions(message: Extract<AgentModeMessage, { type: 'agent/send' | 'agent/draft' }>): SendOptions {
  const typed = [...message.text.matchAll(FILE_TOKEN)].map((match) => ({ kind: 'file' as const, path: match[1]!.replace(/[.,;:!?)]+$/, '') }));
  return { attachments: [...message.attachments, ...typed].slice(0, 20), mentions: message.mentions, openFile: openEditorFile() };
}

/**
 * The mode and the tools, after `state/init` and whenever the settings change; a (re)loaded view
 * (`withApprovals`) also gets the approval cards still waiting.
 */
export async function postAgentModeState(deps: Pick<AgentModeDeps, 'session' | 'agentSettings' | 'post'>, withApprovals: boolean): Promise<void> {
  deps.post({ type: 'chat/mode', mode: deps.agentSettings().mode });
  deps.post({ type: 'tools/list', ...(await deps.session.toolsState()) });
  if (withApprovals) for (const prompt of deps.session.pendingApprovals()) deps.post({ type: 'agent/approval', ...prompt });
}

/** CodeWiki: Add Selection to Chat (editor context menu, Ctrl/Cmd+L): the selection, or the file, as a chip. */
export async function addSelectionToChat(reveal: () => Promise<void>, post: (message: HostToWebview) => void): Promise<void> {
  if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage('CodeWiki: trust this workspace to attach its files to a question.');
  const attachment = editorAttachment();
  if (!attachment) return void vscode.window.showWarningMessage('CodeWiki: open a file from the workspace folder first.');
  await reveal();
  post({ type: 'context/add', attachment });
}
