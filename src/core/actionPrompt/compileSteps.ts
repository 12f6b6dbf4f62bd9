import { compileCondition } from './condition';
import { collectReferences } from '../template/templateParser';
import { NOT_IN_FALLBACK, type LlmToolDefinition, type StepDefinition } from './actionPromptSchema';
import type { CompiledStep } from './compiledActionPrompt';
import { durationToMs } from './duration';
import { jsonPathProblem } from './jsonPathSyntax';
import type { ToolLookup } from '../tools/toolLookup';
import { nearestNames } from '../util/nearestNames';

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
  /** Where each of those names is read, so an undefined one is reported at its own key. */
  references: VariableUse[];
}

export interface VariableUse {
  name: string;
  path: Array<string | number>;
}

/** Names every fallback step may read besides the workflow's variables. */
const FALLBACK_VARIABLES = ['error'] as const;

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
  role: 'step' | 'fallback' = 'step',
): CompiledStepWithReads {
  const references: VariableUse[] = [];
  /** Names read without a `?? default`: a skipped producer of one of them skips this step. */
  const needs = new Set<string>();
  const local = new Set<string>();
  const readTemplate = (value: unknown, at: Array<string | number>) => {
    if (typeof value === 'string') {
      try {
        for (const ref of collectReferences(value)) {
          if (local.has(ref.variable)) continue;
          references.push({ name: ref.variable, path: at });
          if (!ref.fallback) needs.add(ref.variable);
        }
      } catch (error) {
        problems.push({ path: at, message: (error as Error).message });
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => readTemplate(item, [...at, i]));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) readTemplate(item, [...at, key]);
    }
  };

  if (role === 'fallback') {
    for (const key of NOT_IN_FALLBACK) {
      if (definition[key] === undefined) continue;
      if (key === 'output_variable')
        problems.push({ path: [...path, key], message: 'a fallback step gives its output to the failed step; remove output_variable' });
      else problems.push({ path: [...path, key], atKey: true, message: `a fallback step runs once in place of the failed step; it does not take "${key}"` });
    }
  }

  let forEach: CompiledStep['forEach'];
  if (definition.for_each !== undefined) {
    const as = definition.as ?? 'item';
    forEach = { template: definition.for_each, as, concurrency: definition.concurrency ?? 4 };
    readTemplate(definition.for_each, [...path, 'for_each']);
    local.add(as).add('index');
  } else if (role === 'step' && (definition.as || definition.concurrency)) {
    problems.push({ path: [...path, definition.as ? 'as' : 'concurrency'], message: 'only a for_each step takes this field', atKey: true });
  }
  readTemplate(definition.input, [...path, 'input']);

  // A condition decides for itself what an absent value means (`!review`), so its names never skip the step.
  let condition: CompiledStep['condition'];
  if (definition.condition !== undefined) {
    try {
      condition = compileCondition(definition.condition);
      for (const name of condition.variables) references.push({ name, path: [...path, 'condition'] });
    } catch (error) {
      problems.push({ path: [...path, 'condition'], message: (error as Error).message });
    }
  }

  checkTool(definition, path, tools, llmTools, problems);
  if (definition.select !== undefined) {
    const malformed = jsonPathProblem(definition.select);
    if (malformed) problems.push({ path: [...path, 'select'], message: malformed });
  }

  const { onError, fallbackDefinitions } = normaliseOnError(definition, path, problems);
  const fallback = fallbackDefinitions.map(({ definition: fb, path: fbPath }, i) => {
    const compiled = compileStep(fb, i, fbPath, tools, llmTools, problems, 'fallback');
    for (const use of compiled.references) {
      if (FALLBACK_VARIABLES.includes(use.name as 'error')) continue;
      references.push(use);
    }
    for (const name of compiled.step.needs) if (!FALLBACK_VARIABLES.includes(name as 'error')) needs.add(name);
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
    runIfSkipped: definition.run_if_skipped ?? false,
    needs: [...needs],
    fieldPath: path,
  };
  return { step, reads: [...new Set(references.map((r) => r.name))], references };
}

function checkTool(definition: StepDefinition, path: Array<string | number>, tools: ToolLookup, llmTools: LlmToolDefinition[], problems: StepProblem[]): void {
  const yamlTool = llmTools.find((t) => t.name === definition.tool);
  if (!yamlTool && !tools.has(definition.tool)) {
    // The nearest names, not the whole list: dozens of names (workspace prompts included) hide the one meant.
    const near = nearestNames(definition.tool, [...tools.names(), ...llmTools.map((t) => t.name)]);
    const hint = near.length ? `did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : 'no tool has a similar name (`codewiki tools` lists them)';
    problems.push({ path: [...path, 'tool'], message: `unknown tool "${definition.tool}"; ${hint}` });
    return;
  }
  const parameters = yamlTool ? yamlTool.parameters.map((p) => p.name) : tools.parameterNames(definition.tool);
  const required = yamlTool ? yamlTool.parameters.filter((p) => p.required).map((p) => p.name) : tools.requiredParameterNames(definition.tool);
  const input = definition.input;
  if (input !== undefined && input !== null && typeof input === 'object' && !Array.isArray(input)) {
    for (const key of Object.keys(input)) {
      if (!parameters.includes(key))
        problems.push({
          path: [...path, 'input', key],
          atKey: true,
          message: `"${definition.tool}" has no parameter "${key}"; its parameters are: ${parameters.join(', ') || '(none)'}`,
        });
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
    if (definition.fallback)
      problems.push({ path: [...path, 'fallback'], atKey: true, message: 'give the fallback steps once: under on_error or as fallback, not both' });
    return { onError: 'fallback' as const, fallbackDefinitions: listOf(raw.fallback, [...path, 'on_error', 'fallback']) };
  }
  if (raw === 'fallback' && !definition.fallback)
    problems.push({ path: [...path, 'on_error'], message: 'on_error: fallback needs a fallback step (or list of steps)' });
  if (raw !== 'fallback' && definition.fallback)
    problems.push({ path: [...path, 'fallback'], atKey: true, message: 'fallback steps run only with on_error: fallback' });
  return { onError: raw, fallbackDefinitions: raw === 'fallback' ? listOf(definition.fallback, [...path, 'fallback']) : [] };
}

function humanise(tool: string): string {
  const words = tool
    .replace(/_llm_tool$/, '')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
