import { enclosingStepPath, isRecord, readAuthoringDocument, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';
import type { AuthoringKind } from './authoringKind';
import { fieldAt } from './schemaFields';
import { referenceAt } from './templateReferences';
import { agentToolDocs, parameterMarkdown, promptToolDocs, toolMarkdown } from './toolDocs';
import { variablesInScope, type ScopeVariable } from './variablesInScope';

export interface Span {
  start: number;
  end: number;
}

export interface AuthoringHover extends Span {
  markdown: string;
}

/** Hover: a tool's docs on a `tool:` value, a parameter's schema on an input key, a variable's source on `{name}`, a field's description on a key. */
export function hoverAt(text: string, file: string, kind: AuthoringKind, offset: number, env: AuthoringEnvironment | undefined): AuthoringHover | undefined {
  const doc = readAuthoringDocument(text, file, kind);
  if (!doc.positions) return undefined;
  const reference = variableAt(doc, offset);
  if (reference) {
    const where = reference.variable.declaredAt && doc.positions.spanOf(reference.variable.declaredAt);
    const line = where ? ` (line ${doc.positions.positionAt(where.start).line})` : '';
    return { markdown: `${reference.variable.documentation}${line}`, ...reference.span };
  }
  const path = doc.positions.pathAt(offset);
  if (!path.length) return undefined;
  const keySpan = doc.positions.spanOf(path, true);
  const onKey = keySpan !== undefined && keySpan.start <= offset && offset <= keySpan.end;
  const span = (onKey ? keySpan : doc.positions.spanOf(path)) ?? { start: offset, end: offset };
  const last = path[path.length - 1];

  if (kind === 'prompt') {
    const stepPath = enclosingStepPath(path.slice(0, -1));
    if (!onKey && last === 'tool' && stepPath?.length === path.length - 1) {
      const name = valueAt(doc.value, path);
      const tool = promptToolDocs(doc, env).find((t) => t.name === name);
      if (tool) return { markdown: toolMarkdown(tool), ...span };
    }
    const inputStep = enclosingStepPath(path.slice(0, -2));
    if (onKey && path[path.length - 2] === 'input' && inputStep?.length === path.length - 2) {
      const step = valueAt(doc.value, inputStep);
      const tool = isRecord(step) ? promptToolDocs(doc, env).find((t) => t.name === step.tool) : undefined;
      const parameter = tool?.parameters.find((p) => p.name === last);
      if (tool && parameter) return { markdown: parameterMarkdown(tool, parameter), ...span };
    }
  }
  if (kind === 'agent' && !onKey && path.length === 2 && path[0] === 'tools') {
    const tool = env && agentToolDocs(env.agentTools).find((t) => t.name === valueAt(doc.value, path));
    if (tool) return { markdown: toolMarkdown(tool), ...span };
  }
  if (onKey) {
    const field = fieldAt(
      kind,
      path.map((p) => (typeof p === 'number' ? 0 : p)),
    );
    if (field?.description)
      return {
        markdown: `**${field.name}**${field.required ? ' (required)' : ''} — ${field.description}${field.values ? `\n\nOne of: ${field.values.map((v) => `\`${v}\``).join(', ')}` : ''}`,
        ...span,
      };
  }
  return undefined;
}

/** Go to definition: from `{name}` to the input or the step output that declares it. */
export function definitionAt(text: string, file: string, kind: AuthoringKind, offset: number): Span | undefined {
  const doc = readAuthoringDocument(text, file, kind);
  const reference = doc.positions && variableAt(doc, offset);
  const declaredAt = reference?.variable.declaredAt;
  return declaredAt && doc.positions?.spanOf(declaredAt);
}

function variableAt(doc: AuthoringDocument, offset: number): { variable: ScopeVariable; span: Span } | undefined {
  const lineStart = doc.text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = doc.text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = doc.text.length;
  const found = referenceAt(doc.text.slice(lineStart, lineEnd), offset - lineStart);
  if (!found || !doc.positions) return undefined;
  const path = doc.positions.pathAt(offset);
  const variable = variablesInScope(doc, path).find((v) => v.name === found.variable);
  return variable && { variable, span: { start: lineStart + found.start, end: lineStart + found.end } };
}
