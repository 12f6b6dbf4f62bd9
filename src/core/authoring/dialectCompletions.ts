import { dialectFieldsAt, INPUT_TYPES, STRATEGIES } from '../actionPrompt/seedDialect';
import type { CursorPlace } from '../yaml/yamlCursor';
import { isRecord, valueAt, type AuthoringDocument } from './authoringDocument';
import type { AuthoringEnvironment } from './authoringEnvironment';
import { fieldItems, parameterItems, toolItems, valueItems, type AuthoringCompletion } from './completionItems';
import { promptToolDocs } from './toolDocs';

/**
 * Completion in a prompt written in seed 002's dialect (top-level `steps:`, see docs/action-prompts.md): the dialect's
 * own keys where it takes them, tool names, a tool's parameters under `params:`, and `${…}` references.
 */
export function dialectCompletionsAt(doc: AuthoringDocument, place: CursorPlace, offset: number, env: AuthoringEnvironment | undefined): AuthoringCompletion[] {
  if (place.kind !== 'key') {
    const references = referenceItems(doc, place.kind === 'value' ? [...place.path, place.key] : place.path, offset);
    if (references) return references;
  }
  if (place.kind === 'text') return [];
  const replace = { start: place.start, end: offset };

  if (place.kind === 'key') {
    const owner = place.path.slice(0, -1);
    if (place.path[place.path.length - 1] === 'params' && takes(owner, 'params')) {
      const toolName = valueAt(doc.value, [...owner, 'tool']);
      const tool = typeof toolName === 'string' ? promptToolDocs(doc, env).find((t) => t.name === toolName) : undefined;
      return parameterItems(tool, valueAt(doc.value, place.path), replace);
    }
    return fieldItems(dialectFieldsAt(place.path) ?? [], valueAt(doc.value, place.path), replace);
  }

  // A value.
  if (place.key === 'tool' && takes(place.path, 'tool')) return toolItems(promptToolDocs(doc, env), replace);
  if (place.key === 'strategy' && takes(place.path, 'strategy')) return valueItems(STRATEGIES, replace);
  const inputType = (place.path.length === 1 && place.path[0] === 'input') || (place.key === 'type' && takes(place.path, 'type'));
  if (inputType) return valueItems(Object.keys(INPUT_TYPES), replace);
  if (place.key === 'required' && takes(place.path, 'required')) return valueItems([true, false], replace);
  return [];
}

function takes(path: ReadonlyArray<string | number>, field: string): boolean {
  return dialectFieldsAt(path)?.some((f) => f.name === field) ?? false;
}

/**
 * After `${`: the declared inputs as `input.x`, the other steps' outputs as `steps.<id>.output`, and inside an
 * error_handling the failed step's `steps.<id>.error`. Undefined when the cursor is not after an open `${`.
 */
function referenceItems(doc: AuthoringDocument, path: ReadonlyArray<string | number>, offset: number): AuthoringCompletion[] | undefined {
  const lineStart = doc.text.lastIndexOf('\n', offset - 1) + 1;
  const open = /\$\{\s*([A-Za-z0-9_.-]*)$/.exec(doc.text.slice(lineStart, offset));
  if (!open) return undefined;
  const start = offset - open[1].length;
  const close = doc.text[offset] === '}' ? '' : '}';
  const item = (label: string, detail: string): AuthoringCompletion => ({
    label,
    kind: 'variable',
    detail,
    insertText: `${label}${close}`,
    start,
    end: offset,
  });

  const input = valueAt(doc.value, ['input']);
  const inputs = isRecord(input)
    ? Object.entries(input).map(([name, spec]) => item(`input.${name}`, `input${typeof spec === 'string' ? ` (${spec})` : ''}`))
    : [];
  const steps = valueAt(doc.value, ['steps']);
  const current = path[0] === 'steps' && typeof path[1] === 'number' ? path[1] : undefined;
  const outputs: AuthoringCompletion[] = [];
  const errors: AuthoringCompletion[] = [];
  const inHandling = path.includes('error_handling');
  (Array.isArray(steps) ? steps : []).forEach((step, index) => {
    if (!isRecord(step) || typeof step.id !== 'string') return;
    const tool = typeof step.tool === 'string' ? ` (${step.tool})` : '';
    if (index !== current) outputs.push(item(`steps.${step.id}.output`, `output of step ${step.id}${tool}`));
    // A step's own error_handling handles that step; the chain's handles any step.
    if (inHandling && (current === undefined || index === current))
      errors.push(item(`steps.${step.id}.error`, `the error of step ${step.id}, inside its fallback`));
  });
  return [...inputs, ...outputs, ...errors];
}
