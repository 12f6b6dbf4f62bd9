import type { CatalogEntry } from '../actionPrompt/promptCatalog';
import { type Diagnostic, formatDiagnostic } from '../yaml/diagnostics';
import type { PromptInputField, PromptSummary } from '../../shared/protocol';

/** Workspace prompt and agent-definition problems grouped by file, for the Problems panel. */
export function problemsByFile(entries: ReadonlyArray<Pick<CatalogEntry, 'source' | 'diagnostics'>>): Map<string, Diagnostic[]> {
  const byFile = new Map<string, Diagnostic[]>();
  for (const entry of entries) {
    if (entry.source === 'builtin') continue;
    for (const d of entry.diagnostics) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  }
  return byFile;
}

/** How the workspace writes a file's path (`Workspace.displayAbsolutePath`). */
export interface FilePathDisplay {
  displayAbsolutePath(file: string): string;
}

/**
 * What the /agent picker and form need of each prompt; invalid ones carry their first error, with
 * paths as the workspace writes them (relative; `<folder name>/…` in another folder of a multi-root
 * workspace): the picker is a narrow sidebar, where absolute paths only push the message out of sight.
 */
export function promptSummaries(entries: CatalogEntry[], workspace?: FilePathDisplay): PromptSummary[] {
  return entries.map((entry) => ({
    id: entry.id,
    title: entry.title,
    description: entry.description,
    source: entry.source,
    inputs: (entry.prompt?.inputs ?? []).map<PromptInputField>((input) => ({
      name: input.name,
      label: input.description ?? input.name,
      type: input.type,
      required: input.required,
      default: input.default,
      options: input.options,
      placeholder: input.placeholder,
    })),
    ...errorOf(entry, workspace),
  }));
}

function errorOf(entry: CatalogEntry, workspace: FilePathDisplay | undefined): Pick<PromptSummary, 'error' | 'errorAt'> {
  if (entry.prompt) return {};
  const first = entry.diagnostics.find((d) => d.severity === 'error') ?? entry.diagnostics[0];
  if (!first) return { error: 'invalid' };
  const file = workspace ? workspace.displayAbsolutePath(first.file) : first.file;
  return {
    error: formatDiagnostic({ ...first, file }),
    errorAt: { path: file, line: first.line, column: first.column, message: first.field ? `${first.field}: ${first.message}` : first.message },
  };
}
