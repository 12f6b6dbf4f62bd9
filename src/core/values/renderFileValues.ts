import type { FileBundle, FileSummaries, FileTree, SearchResults } from './toolValues';
import { formatBytes } from '../workspace/readTextFile';

/**
 * Prompt text for the file tools' values. Each file gets a header line the model can cite, and
 * every cap that applied is stated, so the model never mistakes a partial view for the whole.
 */

export function renderFileSummaries(value: FileSummaries): string {
  const shown = value.truncated ? `${value.files.length} of ${value.totalFiles} files shown` : `${value.files.length} files`;
  const parts = [`Summaries of ${value.root} (${shown})`];
  for (const file of value.files) {
    const lines = `${file.linesEstimated ? '~' : ''}${file.lines} lines`;
    parts.push(`===== ${file.path} (${file.language}, ${lines}, ${formatBytes(file.size)}) =====\n${file.summary}`);
  }
  if (value.truncated) parts.push('… more files exist: summarise a sub-folder or use a glob to see them.');
  return parts.join('\n\n');
}

export function renderFileBundle(value: FileBundle): string {
  const parts = value.files.map((file) => {
    const lineCount = countLines(file.content);
    const range = file.startLine !== undefined ? `lines ${file.startLine}-${file.endLine ?? file.startLine}` : `${lineCount} lines`;
    const header = `===== ${file.path} (${file.language}, ${range}${file.truncated ? ', truncated' : ''}) =====`;
    const fence = fenceFor(file.content);
    const body = file.content.endsWith('\n') ? file.content : `${file.content}\n`;
    return `${header}\n${fence}${file.language}\n${body}${fence}`;
  });
  if (value.missing.length > 0) {
    parts.push(['Files not included:', ...value.missing.map((m) => `- ${m.path}: ${m.reason}`)].join('\n'));
  }
  return parts.length > 0 ? parts.join('\n\n') : '(no files)';
}

export function renderFileTree(value: FileTree): string {
  const lines = [`${value.root === '.' ? '.' : value.root}/`];
  for (const entry of value.entries) {
    const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
    const indent = '  '.repeat(Math.max(1, entry.depth));
    const size = entry.size !== undefined ? ` (${formatBytes(entry.size)})` : '';
    lines.push(`${indent}${name}${entry.type === 'dir' ? '/' : ''}${size}`);
  }
  if (value.entries.length === 0) lines.push('  (empty)');
  if (value.truncated) lines.push('  … more entries exist: list a sub-folder to see them.');
  return lines.join('\n');
}

export function renderSearchResults(value: SearchResults): string {
  const query = JSON.stringify(value.query);
  if (value.matches.length === 0) return `No matches for ${query} in ${value.filesSearched} files.`;
  const more = value.truncated ? ' (more matches exist; narrow the search with path or glob)' : '';
  const header = `${value.matches.length} matching lines for ${query} in ${value.filesSearched} files searched${more}:`;
  return [header, ...value.matches.map((m) => `${m.path}:${m.line}:${m.column}: ${m.text}`)].join('\n');
}

/** A fence longer than any backtick run in the content, so a file containing ``` cannot close it early. */
function fenceFor(content: string): string {
  let longest = 0;
  for (const run of content.match(/`{3,}/g) ?? []) longest = Math.max(longest, run.length);
  return '`'.repeat(Math.max(3, longest + 1));
}

function countLines(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}
