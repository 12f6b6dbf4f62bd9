import { isAbsolute, relative, sep } from 'node:path';
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

/**
 * What the /agent picker and form need of each prompt; invalid ones carry their first error, with
 * paths relative to `workspaceRoot` (the picker is a narrow sidebar: absolute paths only push the
 * message out of sight).
 */
export function promptSummaries(entries: CatalogEntry[], workspaceRoot?: string): PromptSummary[] {
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
    ...errorOf(entry, workspaceRoot),
  }));
}

function errorOf(entry: CatalogEntry, workspaceRoot: string | undefined): Pick<PromptSummary, 'error' | 'errorAt'> {
  if (entry.prompt) return {};
  const first = entry.diagnostics.find((d) => d.severity === 'error') ?? entry.diagnostics[0];
  if (!first) return { error: 'invalid' };
  const file = displayPath(first.file, workspaceRoot);
  return {
    error: formatDiagnostic({ ...first, file }),
    errorAt: { path: file, line: first.line, column: first.column, message: first.field ? `${first.field}: ${first.message}` : first.message },
  };
}

/** `file` relative to the workspace (posix separators) when it is inside it; as it is otherwise. */
function displayPath(file: string, workspaceRoot: string | undefined): string {
  if (!workspaceRoot || !isAbsolute(file)) return file;
  const rel = relative(workspaceRoot, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : file;
}
