import { isSeedDialect } from '../actionPrompt/seedDialect';
import { cursorPlaceAt } from '../yaml/yamlCursor';
import { enclosingStepPath, isRecord, readAuthoringDocument, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';
import type { AuthoringKind } from './authoringKind';
import { fieldItems, parameterItems, toolItems, valueItems, type AuthoringCompletion, type Replaced } from './completionItems';
import { dialectCompletionsAt } from './dialectCompletions';
import { fieldsAt, valuesAt } from './schemaFields';
import { openReferenceStart } from './templateReferences';
import { agentToolDocs, promptToolDocs } from './toolDocs';
import { variablesInScope } from './variablesInScope';

export type { AuthoringCompletion, CompletionKind } from './completionItems';

/** What to offer at `offset` in an action prompt or agent definition (see docs/authoring.md). */
export function completionsAt(text: string, file: string, kind: AuthoringKind, offset: number, env: AuthoringEnvironment | undefined): AuthoringCompletion[] {
  const doc = readAuthoringDocument(text, file, kind, offset);
  const place = cursorPlaceAt(text, offset);
  if (kind === 'prompt' && isSeedDialect(doc.value)) return dialectCompletionsAt(doc, place, offset, env);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineBefore = text.slice(lineStart, offset);

  if (place.kind !== 'key') {
    const nameStart = openReferenceStart(lineBefore);
    if (nameStart !== undefined) {
      const path = place.kind === 'value' ? [...place.path, place.key] : place.path;
      const close = text[offset] === '}' ? '' : '}';
      return variablesInScope(doc, path).map((v) => ({
        label: v.name,
        kind: 'variable',
        detail: v.detail,
        documentation: v.documentation,
        insertText: `${v.name}${close}`,
        start: lineStart + nameStart,
        end: offset,
      }));
    }
  }
  if (place.kind === 'text') return [];

  if (place.kind === 'key') {
    const replace = { start: place.start, end: offset };
    if (kind === 'agent' && place.path.length === 2 && place.path[0] === 'tools' && place.sequenceItem) {
      return toolItems(env ? agentToolDocs(env.agentTools) : [], replace);
    }
    const stepPath = enclosingStepPath(place.path.slice(0, -1));
    if (kind === 'prompt' && place.path[place.path.length - 1] === 'input' && stepPath && stepPath.length === place.path.length - 1) {
      return stepParameterItems(doc, stepPath, env, replace);
    }
    return fieldItems(fieldsAt(kind, place.path), valueAt(doc.value, place.path), replace);
  }

  // A value.
  const replace = { start: place.start, end: offset };
  if (kind === 'prompt' && place.key === 'tool' && enclosingStepPath(place.path)?.length === place.path.length) {
    return toolItems(promptToolDocs(doc, env), replace);
  }
  return valueItems(valuesAt(kind, [...place.path, place.key]) ?? [], replace);
}

function stepParameterItems(
  doc: AuthoringDocument,
  stepPath: Array<string | number>,
  env: AuthoringEnvironment | undefined,
  replace: Replaced,
): AuthoringCompletion[] {
  const step = valueAt(doc.value, stepPath);
  const toolName = isRecord(step) && typeof step.tool === 'string' ? step.tool : undefined;
  const tool = toolName ? promptToolDocs(doc, env).find((t) => t.name === toolName) : undefined;
  return parameterItems(tool, isRecord(step) ? step.input : undefined, replace);
}
