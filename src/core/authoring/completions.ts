import { cursorPlaceAt } from '../yaml/yamlCursor';
import { enclosingStepPath, isRecord, readAuthoringDocument, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';
import type { AuthoringKind } from './authoringKind';
import { fieldsAt, valuesAt } from './schemaFields';
import { openReferenceStart } from './templateReferences';
import { agentToolDocs, llmToolDocs, registryToolDocs, toolMarkdown, type ToolDoc } from './toolDocs';
import { variablesInScope } from './variablesInScope';

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

/** What to offer at `offset` in an action prompt or agent definition (see docs/authoring.md). */
export function completionsAt(text: string, file: string, kind: AuthoringKind, offset: number, env: AuthoringEnvironment | undefined): AuthoringCompletion[] {
  const doc = readAuthoringDocument(text, file, kind, offset);
  const place = cursorPlaceAt(text, offset);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineBefore = text.slice(lineStart, offset);

  if (place.kind !== 'key') {
    const nameStart = openReferenceStart(lineBefore);
    if (nameStart !== undefined) {
      const path = place.kind === 'value' ? [...place.path, place.key] : place.path;
      const close = text[offset] === '}' ? '' : '}';
      return variablesInScope(doc, path).map((v) => ({ label: v.name, kind: 'variable', detail: v.detail, documentation: v.documentation, insertText: `${v.name}${close}`, start: lineStart + nameStart, end: offset }));
    }
  }
  if (place.kind === 'text') return [];

  if (place.kind === 'key') {
    const replace = { start: place.start, end: offset };
    if (kind === 'agent' && place.path.length === 2 && place.path[0] === 'tools' && place.sequenceItem) {
      return toolItems(env ? agentToolDocs(env.agentTools) : [], replace, (name) => name);
    }
    const stepPath = enclosingStepPath(place.path.slice(0, -1));
    if (kind === 'prompt' && place.path[place.path.length - 1] === 'input' && stepPath && stepPath.length === place.path.length - 1) {
      return parameterItems(doc, stepPath, env, replace);
    }
    const present = valueAt(doc.value, place.path);
    return fieldsAt(kind, place.path)
      .filter((field) => !(isRecord(present) && field.name in present))
      .map((field) => ({ label: field.name, kind: 'field', detail: field.required ? 'required' : undefined, documentation: field.description, insertText: `${field.name}: `, ...replace }));
  }

  // A value.
  const replace = { start: place.start, end: offset };
  const fieldPath = [...place.path, place.key];
  if (kind === 'prompt' && place.key === 'tool' && enclosingStepPath(place.path)?.length === place.path.length) {
    return toolItems(promptToolDocs(doc, env), replace, (name) => name);
  }
  const values = valuesAt(kind, fieldPath);
  return (values ?? []).map((v) => ({ label: String(v), kind: 'value', insertText: String(v), ...replace }));
}

/** Tools a step may call: the registry's (built-in tools and action prompts) and the file's own llm_tools. */
export function promptToolDocs(doc: AuthoringDocument, env: AuthoringEnvironment | undefined): ToolDoc[] {
  const own = llmToolDocs(valueAt(doc.value, ['llm_tools']));
  const fromRegistry = env ? registryToolDocs(env.promptTools) : [];
  const selfId = doc.file.replace(/\\/g, '/').replace(/^.*\//, '').replace(/\.ya?ml$/i, '');
  return [...own, ...fromRegistry.filter((t) => t.name !== selfId && !own.some((o) => o.name === t.name))];
}

function toolItems(docs: ToolDoc[], replace: { start: number; end: number }, insert: (name: string) => string): AuthoringCompletion[] {
  return docs.map((tool) => ({
    label: tool.name,
    kind: tool.kind === 'prompt' ? 'prompt' : 'tool',
    detail: tool.kind === 'prompt' ? `action prompt — ${firstLine(tool.description)}` : firstLine(tool.description),
    documentation: toolMarkdown(tool),
    insertText: insert(tool.name),
    ...replace,
  }));
}

function parameterItems(doc: AuthoringDocument, stepPath: Array<string | number>, env: AuthoringEnvironment | undefined, replace: { start: number; end: number }): AuthoringCompletion[] {
  const step = valueAt(doc.value, stepPath);
  const toolName = isRecord(step) && typeof step.tool === 'string' ? step.tool : undefined;
  const tool = toolName ? promptToolDocs(doc, env).find((t) => t.name === toolName) : undefined;
  if (!tool) return [];
  const input = isRecord(step) ? step.input : undefined;
  return tool.parameters
    .filter((p) => !(isRecord(input) && p.name in input))
    .map((p) => ({ label: p.name, kind: 'parameter', detail: `${p.type}${p.required ? ' (required)' : ''}`, documentation: p.description, insertText: `${p.name}: `, ...replace }));
}

function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
