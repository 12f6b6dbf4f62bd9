import { codeSpan, inertMarkdown } from './inertMarkdown';
import type { AuthoringDocument } from './authoringDocument';
import { enclosingStepPath, isRecord, valueAt } from './authoringDocument';

/** A name a template may reference at some place, and where it comes from. */
export interface ScopeVariable {
  name: string;
  kind: 'input' | 'output' | 'item' | 'index' | 'error' | 'parameter';
  /** One line for a completion item's detail. */
  detail: string;
  /** Markdown for documentation and hover. */
  documentation: string;
  /** Where it is declared (the value to jump to), when the file declares it. */
  declaredAt?: Array<string | number>;
}

/**
 * The variables in scope at a field: the prompt's inputs and the other steps' outputs (the
 * engine orders steps by what they read, so a step may read any other step's output), plus a
 * for_each step's item and index, a fallback step's `error`, and an llm_tool's own parameters.
 * In an agent definition: its inputs.
 */
export function variablesInScope(doc: AuthoringDocument, path: ReadonlyArray<string | number>): ScopeVariable[] {
  return doc.kind === 'agent' ? agentInputs(doc.value) : promptVariables(doc.value, path);
}

function agentInputs(value: unknown): ScopeVariable[] {
  const inputs = valueAt(value, ['inputs']);
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input, i) =>
    isRecord(input) && typeof input.name === 'string'
      ? [
          {
            name: input.name,
            kind: 'input' as const,
            detail: `input (${String(input.type ?? 'string')})`,
            documentation: `**${inertMarkdown(input.name)}**: input of this agent${input.description ? ` — ${inertMarkdown(String(input.description))}` : ''}`,
            declaredAt: ['inputs', i, 'name'],
          },
        ]
      : [],
  );
}

function promptVariables(value: unknown, path: ReadonlyArray<string | number>): ScopeVariable[] {
  const found: ScopeVariable[] = [];
  const inputs = valueAt(value, ['input_variables']);
  if (Array.isArray(inputs)) {
    inputs.forEach((input, i) => {
      if (!isRecord(input) || typeof input.name !== 'string') return;
      const type = typeof input.type === 'string' ? input.type : 'text';
      found.push({
        name: input.name,
        kind: 'input',
        detail: `input (${type})`,
        documentation: `**${inertMarkdown(input.name)}**: input (${codeSpan(type)})${input.description ? ` — ${inertMarkdown(String(input.description))}` : ''}`,
        declaredAt: ['input_variables', i, 'name'],
      });
    });
  }
  const ownStep = path[0] === 'tool_chain' && typeof path[1] === 'number' ? path[1] : undefined;
  const steps = valueAt(value, ['tool_chain']);
  if (Array.isArray(steps)) {
    steps.forEach((step, i) => {
      if (i === ownStep || !isRecord(step) || typeof step.output_variable !== 'string') return;
      const id = typeof step.id === 'string' ? step.id : step.output_variable;
      const tool = typeof step.tool === 'string' ? step.tool : '?';
      found.push({
        name: step.output_variable,
        kind: 'output',
        detail: `output of step ${id} (${tool})`,
        documentation: `**${inertMarkdown(step.output_variable)}**: output of step ${codeSpan(id)} (tool ${codeSpan(tool)}, tool_chain[${i}])${typeof step.select === 'string' ? `, selected by ${codeSpan(step.select)}` : ''}`,
        declaredAt: ['tool_chain', i, 'output_variable'],
      });
    });
  }
  const stepPath = enclosingStepPath(path);
  const step = stepPath ? valueAt(value, stepPath) : undefined;
  if (stepPath && isRecord(step) && step.for_each !== undefined && path[stepPath.length] !== 'for_each') {
    const as = typeof step.as === 'string' ? step.as : 'item';
    found.push({
      name: as,
      kind: 'item',
      detail: 'the current for_each item',
      documentation: `**${inertMarkdown(as)}**: the current item of this step's \`for_each\``,
      declaredAt: step.as ? [...stepPath, 'as'] : [...stepPath, 'for_each'],
    });
    found.push({
      name: 'index',
      kind: 'index',
      detail: 'the current for_each position (0-based)',
      documentation: '**index**: the position of the current `for_each` item, from 0',
    });
  }
  if (stepPath && stepPath.length > 2)
    found.push({
      name: 'error',
      kind: 'error',
      detail: 'why the step failed',
      documentation: '**error**: the message of the failure this fallback step replaces',
    });
  if (path[0] === 'llm_tools' && typeof path[1] === 'number') {
    const params = valueAt(value, ['llm_tools', path[1], 'parameters']);
    if (Array.isArray(params)) {
      params.forEach((p, j) => {
        if (isRecord(p) && typeof p.name === 'string')
          found.push({
            name: p.name,
            kind: 'parameter',
            detail: 'parameter of this LLM tool',
            documentation: `**${inertMarkdown(p.name)}**: parameter of this LLM tool${p.description ? ` — ${inertMarkdown(String(p.description))}` : ''}`,
            declaredAt: ['llm_tools', path[1], 'parameters', j, 'name'],
          });
      });
    }
  }
  return found;
}
