import * as vscode from 'vscode';
import { INSTRUCTION_FILES } from '../core/agent/projectInstructions';

/**
 * Watches every folder's AGENTS.md and .codewiki/instructions.md. The agent reads them afresh for each
 * question, so nothing is stale; what a change makes stale is the local model's cached prompt, which
 * `onChange` computes again before the next question needs it. Bursts (an editor's save, a git
 * checkout) call it once.
 */
export function watchProjectInstructions(onChange: () => void, debounceMs = 500): vscode.Disposable {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, debounceMs);
  };
  const watchers = (vscode.workspace.workspaceFolders ?? []).flatMap((folder) =>
    INSTRUCTION_FILES.map((file) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, file));
      watcher.onDidCreate(changed);
      watcher.onDidChange(changed);
      watcher.onDidDelete(changed);
      return watcher;
    }),
  );
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    watchers.forEach((w) => w.dispose());
  });
}
