import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { RunLog } from '../core/engine/runLog';
import { runLogMarkdown } from './runLogMarkdown';

/**
 * "Open run log": a readable page first (steps with status, time, tokens, inputs and outputs) in
 * VS Code's Markdown preview, with the raw JSON one click further. The page is written beside the
 * JSON (`<run_id>.md` next to `<run_id>.json`) so its relative link to the JSON resolves.
 */
export async function openRunLogView(jsonPath: string): Promise<vscode.Uri> {
  const log = JSON.parse(await readFile(jsonPath, 'utf8')) as RunLog;
  const page = join(dirname(jsonPath), `${basename(jsonPath, '.json')}.md`);
  await writeFile(page, runLogMarkdown(log, basename(jsonPath)));
  const uri = vscode.Uri.file(page);
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    // Without the built-in Markdown extension the page still reads well as text.
    await vscode.window.showTextDocument(uri, { preview: true });
  }
  return uri;
}
