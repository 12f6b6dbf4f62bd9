import { compileCondition } from '../engine/condition';
import { collectReferences } from '../template/templateParser';
import type { LlmToolDefinition, StepDefinition } from './actionPromptSchema';
import type { CompiledStep } from './compiledActionPrompt';
import { durationToMs } from './duration';
import type { ToolLookup } from './toolLookup';

export interface StepProblem {
  path: Array<string | number>;
  message: string;
  /** Point at the key rather than its value. */
  atKey?: boolean;
}

export interface CompiledStepWithReads {
  step: CompiledStep;
  /** Variables the step reads from outside itself (for_each item names excluded). */
  reads: string[];
}

/** Names every fallback step may read besides the workflow's variables. */
export const FALLBACK_VARIABLES = ['error'] as const;

/**
 * Turns one validated step definition into a CompiledStep, collecting every problem instead
 * of stopping at the first, so `codewiki validate` can list them all.
 */
export function compileStep(
  definition: StepDefinition,
  index: number,
  path: Array<string | number>,
  tools: ToolLookup,
  llmTools: LlmToolDefinition[],
  problems: StepProblem[],
): CompiledStepWithReads {
  const reads = new Set<string>();
  const local = new Set<string>();
  const readTemplate = (value: unknown, field: string) => {
    try {
      for (const ref of collectReferences(value)) if (!local.has(ref.variable)) reads.add(ref.variable);
    } catch (error) {
      problems.push({ path: [...path, field], message: (error as Error).message });
    }
  };

  let forEach: CompiledStep['forEach'];
  if (definition.for_each !== undefined) {
    const as = definition.as ?? 'item';
    forEach = { template: definition.for_each, as, concurrency: definition.concurrency ?? 4 };
    readTemplate(definition.for_each, 'for_each');
    local.add(as).add('index');
  } else if (definition.as || definition.concurrency) {
    problems.push({ path: [...path, definition.as ? 'as' : 'concurrency'], message: 'only a for_each step takes this field', atKey: true });
  }
  readTemplate(definition.input, 'input');

  let condition: CompiledStep['condition'];
  if (definition.condition !== undefined) {
    try {
      condition = compileCondition(definition.condition);
      for (const name of condition.variables) reads.add(name);
    } catch (error) {
      problems.push({ path: [...path, 'condition'], message: (error as Error).message });
    }
  }

  checkTool(definition, path, tools, llmTools, problems);

  const { onError, fallbackDefinitions } = normaliseOnError(definition, path, problems);
  const fallback = fallbackDefinitions.map(({ definition: fb, path: fbPath }, i) => {
    if (fb.output_variable) problems.push({ path: [...fbPath, 'output_variable'], message: 'a fallback step gives its output to the failed step; remove output_variable' });
    const compiled = compileStep(fb, i, fbPath, tools, llmTools, problems);
    for (const name of compiled.reads) if (!FALLBACK_VARIABLES.includes(name as 'error')) reads.add(name);
    return compiled.step;
  });

  const retry = typeof definition.retry === 'number' ? { attempts: definition.retry } : definition.retry;
  const id = definition.id ?? definition.output_variable ?? `step_${index + 1}`;
  const step: CompiledStep = {
    index,
    id,
    title: definition.title ?? humanise(definition.tool),
    tool: definition.tool,
    input: definition.input,
    outputVariable: definition.output_variable,
    condition,
    select: definition.select,
    retry: { attempts: retry?.attempts ?? 1, backoffMs: retry && 'backoff' in retry && retry.backoff !== undefined ? durationToMs(retry.backoff) : 500 },
    onError,
    fallback,
    timeoutMs: definition.timeout !== undefined ? durationToMs(definition.timeout) : undefined,
    forEach,
    fieldPath: path,
  };
  return { step, reads: [...reads] };
}

function checkTool(definition: StepDefinition, path: Array<string | number>, tools: ToolLookup, llmTools: LlmToolDefinition[], problems: StepProblem[]): void {
  const yamlTool = llmTools.find((t) => t.name === definition.tool);
  if (!yamlTool && !tools.has(definition.tool)) {
    const known = [...tools.names(), ...llmTools.map((t) => t.name)].sort();
    problems.push({ path: [...path, 'tool'], message: `unknown tool "${definition.tool}"; known tools: ${known.join(', ')}` });
    return;
  }
  const parameters = yamlTool ? yamlTool.parameters.map((p) => p.name) : tools.parameterNames(definition.tool);
  const required = yamlTool ? yamlTool.parameters.filter((p) => p.required).map((p) => p.name) : tools.requiredParameterNames(definition.tool);
  const input = definition.input;
  if (input !== undefined && input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const key of Object.keys(input)) {
      if (!parameters.includes(key))
        problems.push({ path: [...path, 'input', key], atKey: true, message: `"${definition.tool}" has no parameter "${key}"; its parameters are: ${parameters.join(', ') || '(none)'}` });
    }
    for (const name of required) {
      if (!(name in input)) problems.push({ path: [...path, 'input'], message: `"${definition.tool}" needs the parameter "${name}"` });
    }
  } else if (input !== undefined) {
    if (singleParameter(parameters, required) === undefined)
      problems.push({ path: [...path, 'input'], message: `"${definition.tool}" takes several parameters (${parameters.join(', ')}); give input as a mapping` });
  } else if (required.length) {
    problems.push({ path: [...path, 'tool'], message: `"${definition.tool}" needs input: ${required.join(', ')}` });
  }
}

/** The parameter a lone input value binds to: the only required one, else the only one. */
export function singleParameter(parameters: string[], required: string[]): string | undefined {
  if (required.length === 1) return required[0];
  if (required.length === 0 && parameters.length === 1) return parameters[0];
  return undefined;
}

function normaliseOnError(definition: StepDefinition, path: Array<string | number>, problems: StepProblem[]) {
  const raw = definition.on_error ?? 'abort';
  const listOf = (value: StepDefinition | StepDefinition[] | undefined, at: Array<string | number>) =>
    value === undefined ? [] : Array.isArray(value) ? value.map((d, i) => ({ definition: d, path: [...at, i] })) : [{ definition: value, path: at }];
  if (typeof raw === 'object') {
    if (definition.fallback) problems.push({ path: [...path, 'fallback'], atKey: true, message: 'give the fallback steps once: under on_error or as fallback, not both' });
    return { onError: 'fallback' as const, fallbackDefinitions: listOf(raw.fallback, [...path, 'on_error', 'fallback']) };
  }
  if (raw === 'fallback' && !definition.fallback) problems.push({ path: [...path, 'on_error'], message: 'on_error: fallback needs a fallback step (or list of steps)' });
  if (raw !== 'fallback' && definition.fallback) problems.push({ path: [...path, 'fallback'], atKey: true, message: 'fallback steps run only with on_error: fallback' });
  return { onError: raw, fallbackDefinitions: raw === 'fallback' ? listOf(definition.fallback, [...path, 'fallback']) : [] };
}

function humanise(tool: string): string {
  const words = tool.replace(/_llm_tool$/, '').replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
