import * as vscode from 'vscode';
import type { IndexStatus } from '../../core/codebaseIndex/codeIndexTypes';

/**
 * The index in the status bar: progress while it builds (click to stop), its size when ready (click to
 * rebuild), and a warning when it failed. Hidden when there is no index (Restricted Mode, no folder).
 */
export class IndexStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('codewiki.index', vscode.StatusBarAlignment.Right, 90);

  constructor() {
    this.item.name = 'CodeWiki Code Index';
  }

  show(status: IndexStatus | undefined): void {
    if (!status || status.state === 'disabled') return this.item.hide();
    const files = status.indexedFiles.toLocaleString('en-US');
    if (status.state === 'building' || status.state === 'idle') {
      const of = status.totalFiles ? `${files}/${status.totalFiles.toLocaleString('en-US')}` : files;
      this.item.text = `$(sync~spin) Indexing ${of}`;
      this.item.tooltip =
        'CodeWiki is indexing the workspace (symbols, search, file graph) in the background; questions can already use what is indexed. Click to stop.';
      this.item.command = 'codewiki.stopIndexing';
    } else if (status.state === 'failed') {
      this.item.text = '$(warning) Index';
      this.item.tooltip = `CodeWiki's code index failed: ${status.error ?? 'unknown error'}. Click to rebuild.`;
      this.item.command = 'codewiki.rebuildIndex';
    } else {
      this.item.text = `$(database) ${files} files`;
      const time = status.durationMs !== undefined ? ` Last update took ${(status.durationMs / 1000).toFixed(1)} s.` : '';
      this.item.tooltip = `CodeWiki code index: ${files} files, ${status.symbols.toLocaleString('en-US')} definitions, kept current as files change.${time} Click to rebuild.`;
      this.item.command = 'codewiki.rebuildIndex';
    }
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
