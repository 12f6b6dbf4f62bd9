import { inertMarkdown } from './inertMarkdown';
import { isRecord } from './authoringDocument';
import { toolMarkdown, type ToolDoc } from './toolDocs';

export type CompletionKind = 'field' | 'tool' | 'prompt' | 'parameter' | 'variable' | 'value';

export interface AuthoringCompletion {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  insertText: string;
  /** The text the item replaces: [start, end) offsets in the document. */
  start: number;
  end: number;
}

/** The text an item replaces: [start, end) offsets in the document. */
export interface Replaced {
  start: number;
  end: number;
}

/** Field names not written yet in `present` (the mapping as parsed so far). */
export function fieldItems(
  fields: ReadonlyArray<{ name: string; description?: string; required?: boolean }>,
  present: unknown,
  replace: Replaced,
): AuthoringCompletion[] {
  return fields
    .filter((field) => !(isRecord(present) && field.name in present))
    .map((field) => ({
      label: field.name,
      kind: 'field',
      detail: field.required ? 'required' : undefined,
      documentation: field.description,
      insertText: `${field.name}: `,
      ...replace,
    }));
}

export function toolItems(docs: ToolDoc[], replace: Replaced): AuthoringCompletion[] {
  return docs.map((tool) => ({
    label: tool.name,
    kind: tool.kind === 'prompt' ? 'prompt' : 'tool',
    detail: tool.kind === 'prompt' ? `action prompt — ${firstLine(tool.description)}` : firstLine(tool.description),
    documentation: toolMarkdown(tool),
    insertText: tool.name,
    ...replace,
  }));
}

/** The parameters of `tool` not given yet in `given` (the input or params mapping as parsed so far). */
export function parameterItems(tool: ToolDoc | undefined, given: unknown, replace: Replaced): AuthoringCompletion[] {
  if (!tool) return [];
  return tool.parameters
    .filter((p) => !(isRecord(given) && p.name in given))
    .map((p) => ({
      label: p.name,
      kind: 'parameter',
      detail: `${p.type}${p.required ? ' (required)' : ''}`,
      documentation: p.description && inertMarkdown(p.description),
      insertText: `${p.name}: `,
      ...replace,
    }));
}

export function valueItems(values: ReadonlyArray<string | number | boolean>, replace: Replaced): AuthoringCompletion[] {
  return values.map((v) => ({ label: String(v), kind: 'value', insertText: String(v), ...replace }));
}

function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
