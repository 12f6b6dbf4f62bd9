import type { z } from 'zod';
import { buildDependencyGraph, DependencyCycleError } from './dependencyGraph';
import { collectReferences } from '../template/templateParser';
import type { PositionIndex } from '../yaml/yamlPositions';
import { actionPromptSchema, DEFAULT_MAX_CONCURRENCY, type ActionPromptDefinition } from './actionPromptSchema';
import type { CompiledActionPrompt, CompiledInput, CompiledStep, PromptSource } from './compiledActionPrompt';
import { compileStep, type CompiledStepWithReads, type StepProblem } from './compileSteps';
import { ActionPromptError, type Diagnostic, formatFieldPath } from '../yaml/diagnostics';
import { findDollarReferences } from './dollarReferences';
import { findInvisibleText } from './invisibleText';
import { salvageDefinition, type SalvagedDefinition } from './salvageDefinition';
import { type DialectOptions, readActionPromptYaml, writtenPath } from './seedDialect';
import { stepLimitProblem } from './stepLimit';
import type { ToolLookup } from '../tools/toolLookup';

export interface CompileOptions {
  file: string;
  id: string;
  source: PromptSource;
  tools: ToolLookup;
  /** For files in seed 002's dialect: which `${env.X}` they may read. */
  dialect?: DialectOptions;
}

/**
 * Everything that can be known before running is checked here: YAML safety, the step cap,
 * invisible text, the schema, tool names and parameters, template syntax, undefined variables,
 * duplicate outputs and cycles. Nothing runs when any of it fails, and every problem is reported
 * with file, line and field. Warnings (e.g. a zero-width space) do not stop a prompt: they ride
 * along with the errors when there are any, and on the compiled prompt when there are none.
 */
export function compileActionPrompt(text: string, options: CompileOptions): CompiledActionPrompt {
  let parsed: ParsedActionPrompt;
  try {
    parsed = parseActionPromptDefinition(text, options.file, { dialect: options.dialect });
  } catch (error) {
    throw withSalvagedProblems(error, options);
  }
  return compileParsedActionPrompt(parsed, options);
}

export interface ParsedActionPrompt {
  definition: ActionPromptDefinition;
  positions: PositionIndex;
  warnings: Diagnostic[];
  /** Only for a salvaged definition (see salvageDefinition.ts): steps that failed the schema. */
  invalidSteps?: SalvagedDefinition['invalidSteps'];
}

/** A file the schema rejected, with what did pass, so the second half can still check it. */
class ActionPromptSchemaError extends ActionPromptError {
  constructor(
    diagnostics: Diagnostic[],
    readonly salvaged: ParsedActionPrompt | undefined,
  ) {
    super(diagnostics);
  }
}

/**
 * For a schema error: the same error with the problems the second half finds in the parts that
 * passed (unknown tools, undefined names, cycles…), in file order, so one pass reports them all.
 * Any other error is returned as it is.
 */
export function withSalvagedProblems(error: unknown, options: CompileOptions): unknown {
  if (!(error instanceof ActionPromptSchemaError) || !error.salvaged) return error;
  let more: Diagnostic[] = [];
  try {
    compileParsedActionPrompt(error.salvaged, options);
  } catch (second) {
    if (second instanceof ActionPromptError) more = second.diagnostics.filter((d) => d.severity === 'error');
  }
  const seen = new Set(error.diagnostics.map((d) => `${d.line}:${d.column}:${d.message}`));
  const merged = [...error.diagnostics, ...more.filter((d) => !seen.has(`${d.line}:${d.column}:${d.message}`))];
  merged.sort((a, b) => a.line - b.line || a.column - b.column);
  return new ActionPromptError(merged);
}

/** The first half of compiling: safe YAML, the step cap, invisible text and the schema. Enough to know a prompt's inputs. */
export function parseActionPromptDefinition(text: string, file: string, options: { dialect?: DialectOptions } = {}): ParsedActionPrompt {
  // A file in seed 002's dialect is translated here; from now on there is one format, with positions in the file as written.
  const { value, positions, diagnostics: translation, dialect } = readActionPromptYaml(text, file, options.dialect);
  // Problems found before the schema: hidden text, `${…}` in a CodeWiki template, seed-002 constructs without an equivalent.
  const invisible = [...findInvisibleText(positions, file), ...translation, ...(dialect === 'codewiki' ? findDollarReferences(value, positions, file) : [])];
  const tooManySteps = stepLimitProblem(value);
  if (tooManySteps) throw new ActionPromptError([toDiagnostic(tooManySteps, file, positions), ...invisible]);
  const parsed = actionPromptSchema.safeParse(value ?? {});
  const errors = parsed.success ? [] : schemaProblems(parsed.error).map((p) => toDiagnostic(p, file, positions));
  if (!parsed.success) {
    const salvaged = salvageDefinition(value);
    throw new ActionPromptSchemaError([...errors, ...invisible], salvaged && { ...salvaged, positions, warnings: [] });
  }
  if (invisible.some((d) => d.severity === 'error')) throw new ActionPromptError(invisible);
  return { definition: parsed.data, positions, warnings: invisible };
}

function toDiagnostic(problem: StepProblem, file: string, positions: PositionIndex): Diagnostic {
  return {
    file,
    ...positions.locate(problem.path, problem.atKey),
    field: formatFieldPath(writtenPath(positions, problem.path)),
    message: problem.message,
    severity: 'error',
  };
}

/** The second half: tools, references, names and the dependency graph. */
export function compileParsedActionPrompt(
  { definition, positions, warnings, invalidSteps }: ParsedActionPrompt,
  options: CompileOptions,
): CompiledActionPrompt {
  const problems: StepProblem[] = [];
  const inputs = definition.input_variables.map<CompiledInput>((input, i) => ({
    ...input,
    required: input.required ?? (input.default === undefined && input.type !== 'boolean'),
    fieldPath: ['input_variables', i],
  }));
  // A prompt is never the tool its own typo meant: leave it out of "did you mean" (it still cannot call itself).
  const all = options.tools;
  const tools: ToolLookup = {
    has: (name) => all.has(name),
    names: () => all.names().filter((name) => name !== options.id),
    parameterNames: (name) => all.parameterNames(name),
    requiredParameterNames: (name) => all.requiredParameterNames(name),
  };
  const compiled = definition.tool_chain.map((step, i) => {
    const invalid = invalidSteps?.get(i);
    return invalid ? placeholderStep(i, invalid.outputVariable) : compileStep(step, i, ['tool_chain', i], tools, definition.llm_tools, problems);
  });
  const steps = compiled.map((c) => c.step);
  for (const step of steps) {
    if (step.tool === options.id) problems.push({ path: [...step.fieldPath, 'tool'], message: `an action prompt cannot call itself ("${options.id}")` });
  }

  const defined = checkNames(definition, steps, problems);
  compiled.forEach(({ references }) => {
    for (const use of references) {
      if (!defined.has(use.name)) problems.push({ path: use.path, message: undefinedMessage(use.name, defined) });
    }
  });
  checkTemplates(definition, defined, problems);

  let dependencies: number[][] = [];
  try {
    dependencies = buildDependencyGraph(
      compiled.map(({ step, reads }) => ({ index: step.index, id: step.id, outputVariable: step.outputVariable, reads })),
    ).dependencies;
  } catch (error) {
    if (!(error instanceof DependencyCycleError)) throw error;
    problems.push({ path: steps[error.cycle[0]].fieldPath, message: error.message });
  }
  const allWarnings = [
    ...warnings,
    ...concurrencyWarnings(definition, steps).map((p) => ({ ...toDiagnostic(p, options.file, positions), severity: 'warning' as const })),
  ];
  if (problems.length) throw new ActionPromptError([...problems.map((p) => toDiagnostic(p, options.file, positions)), ...allWarnings]);

  return {
    id: options.id,
    file: options.file,
    source: options.source,
    title: definition.title,
    description: definition.description ?? '',
    inputs,
    llmTools: definition.llm_tools,
    steps,
    dependencies,
    finalPrompt: definition.llm_prompt_template,
    outputTemplate: definition.output,
    models: definition.models ?? {},
    maxConcurrency: definition.max_concurrency,
    definition,
    positions,
    warnings: allWarnings,
  };
}

/** Stands in for a step the schema rejected (already reported): it defines its output name and reads nothing. */
function placeholderStep(index: number, outputVariable: string | undefined): CompiledStepWithReads {
  const step: CompiledStep = {
    index,
    id: `step_${index + 1}`,
    title: '',
    tool: '',
    outputVariable,
    retry: { attempts: 1, backoffMs: 0 },
    onError: 'abort',
    fallback: [],
    runIfSkipped: false,
    needs: [],
    fieldPath: ['tool_chain', index],
  };
  return { step, reads: [], references: [] };
}

/**
 * A for_each step's `concurrency` cannot exceed the run's limit (every item's tool call takes a
 * slot of `max_concurrency`); saying so beats a step that quietly runs slower than it promises.
 */
function concurrencyWarnings(definition: ActionPromptDefinition, steps: CompiledStep[]): StepProblem[] {
  const limit = definition.max_concurrency ?? DEFAULT_MAX_CONCURRENCY;
  return steps.flatMap((step) =>
    step.forEach && step.forEach.concurrency > limit
      ? [
          {
            path: [...step.fieldPath, 'concurrency'],
            message: `concurrency ${step.forEach.concurrency} is capped by the prompt's max_concurrency (${limit}${definition.max_concurrency === undefined ? ', the default' : ''}); at most ${limit} items run at once. Raise max_concurrency to run more.`,
          },
        ]
      : [],
  );
}

/** Inputs and step outputs share one namespace; clashes would make templates ambiguous. */
function checkNames(definition: ActionPromptDefinition, steps: CompiledStep[], problems: StepProblem[]): Set<string> {
  const defined = new Set<string>();
  definition.input_variables.forEach((input, i) => {
    if (defined.has(input.name)) problems.push({ path: ['input_variables', i, 'name'], message: `the input "${input.name}" is declared twice` });
    defined.add(input.name);
  });
  const stepIds = new Set<string>();
  for (const step of steps) {
    if (stepIds.has(step.id)) problems.push({ path: [...step.fieldPath, 'id'], message: `two steps are named "${step.id}"` });
    stepIds.add(step.id);
    if (!step.outputVariable) continue;
    if (defined.has(step.outputVariable))
      problems.push({ path: [...step.fieldPath, 'output_variable'], message: `"${step.outputVariable}" is already defined by an input or an earlier step` });
    defined.add(step.outputVariable);
  }
  return defined;
}

function checkTemplates(definition: ActionPromptDefinition, defined: Set<string>, problems: StepProblem[]): void {
  const check = (template: unknown, path: Array<string | number>, extra: string[] = []) => {
    if (template === undefined) return;
    try {
      for (const ref of collectReferences(template)) {
        if (!defined.has(ref.variable) && !extra.includes(ref.variable)) problems.push({ path, message: undefinedMessage(ref.variable, defined) });
      }
    } catch (error) {
      problems.push({ path, message: (error as Error).message });
    }
  };
  check(definition.llm_prompt_template?.system, ['llm_prompt_template', 'system']);
  check(definition.llm_prompt_template?.human, ['llm_prompt_template', 'human']);
  check(definition.output, ['output']);
  definition.llm_tools.forEach((tool, i) => {
    const params = tool.parameters.map((p) => p.name);
    check(tool.system, ['llm_tools', i, 'system'], params);
    check(tool.human, ['llm_tools', i, 'human'], params);
  });
}

function undefinedMessage(name: string, defined: Set<string>): string {
  const known = [...defined];
  return `{${name}} is not defined; it must be an input or a step's output_variable${known.length ? ` (defined: ${known.join(', ')})` : ''}`;
}

function schemaProblems(error: z.ZodError): StepProblem[] {
  return error.issues.flatMap<StepProblem>((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: [...path, key], atKey: true, message: `unknown field "${key}"` }));
    }
    if (issue.code === 'invalid_union') {
      return [{ path, message: describeUnion(issue) }];
    }
    return [{ path, message: issue.message }];
  });
}

/** Zod's union messages are vague ("Invalid input"); name what was expected instead. */
function describeUnion(issue: z.core.$ZodIssueInvalidUnion): string {
  const nested = issue.errors.flat();
  const specific = nested.find((e) => e.code !== 'invalid_type' && e.path.length === 0);
  if (specific) return specific.message;
  const expected = [...new Set(nested.flatMap((e) => (e.code === 'invalid_type' ? [e.expected] : [])))];
  return expected.length ? `expected ${expected.join(' or ')}` : 'has the wrong type here';
}
