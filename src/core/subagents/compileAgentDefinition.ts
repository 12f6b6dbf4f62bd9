import type { z } from 'zod';
import { ActionPromptError, type Diagnostic, formatFieldPath } from '../yaml/diagnostics';
import { findInvisibleText } from '../actionPrompt/invisibleText';
import { collectReferences } from '../template/templateParser';
import type { ToolRegistry } from '../tools/toolRegistry';
import { nearestNames } from '../util/nearestNames';
import { parseYamlSafely } from '../yaml/parseYamlSafely';
import type { PositionIndex } from '../yaml/yamlPositions';
import { agentDefinitionSchema, type AgentDefinitionFile } from './agentDefinitionSchema';
import type { AgentSource, CompiledAgentDefinition } from './compiledAgentDefinition';
import { isSubagentTool } from './subagentTool';

export interface CompileAgentOptions {
  file: string;
  source: AgentSource;
  /** The agent's tools (the engine's agentRegistry): what an allow-list may name. */
  tools: ToolRegistry;
  /** Definitions loaded alongside this one, not registered yet: an allow-list may not name them either. */
  agentNames?: ReadonlySet<string>;
}

export interface ParsedAgentDefinition {
  definition: AgentDefinitionFile;
  positions: PositionIndex;
  warnings: Diagnostic[];
}

interface Problem {
  path: Array<string | number>;
  message: string;
  /** Point at the key rather than its value. */
  atKey?: boolean;
}

/**
 * Loads one agent definition with the protections action prompts get (security promise #9): the
 * same hostile-YAML parser (size, node, depth and alias-expansion caps, forbidden keys), the same
 * invisible-text scan, a strict schema, then the allow-list and `{input}` references. Every
 * problem is reported at `file:line:col: field: message`, and nothing is registered when any is found.
 */
export function compileAgentDefinition(text: string, options: CompileAgentOptions): CompiledAgentDefinition {
  return checkAgentDefinition(parseAgentDefinition(text, options.file), options);
}

/** The first half: safe YAML, invisible text and the schema. Enough to know the definition's name. */
export function parseAgentDefinition(text: string, file: string): ParsedAgentDefinition {
  const { value, positions } = parseYamlSafely(text, file);
  const invisible = findInvisibleText(positions, file);
  const parsed = agentDefinitionSchema.safeParse(value ?? {});
  if (!parsed.success) throw new ActionPromptError([...schemaProblems(parsed.error).map((p) => toDiagnostic(p, file, positions)), ...invisible]);
  return { definition: parsed.data, positions, warnings: invisible };
}

/** The second half: the name, the inputs and their references, and the allow-list against the agent's tools. */
export function checkAgentDefinition({ definition, positions, warnings }: ParsedAgentDefinition, options: CompileAgentOptions): CompiledAgentDefinition {
  const { file } = options;
  const agentNames = options.agentNames ?? new Set<string>();
  const problems = [...nameProblems(definition, options.tools), ...inputProblems(definition), ...allowListProblems(definition, options.tools, agentNames)];
  if (problems.length || warnings.some((d) => d.severity === 'error'))
    throw new ActionPromptError([...problems.map((p) => toDiagnostic(p, file, positions)), ...warnings]);

  return {
    name: definition.name,
    description: definition.description,
    inputs: definition.inputs,
    system: definition.system,
    tools: definition.tools,
    model: definition.model,
    maxIterations: definition.max_iterations,
    file,
    source: options.source,
    positions,
    warnings,
  };
}

/** The tools an allow-list may name: agent-callable, and not sub-agents (they do not nest). */
function toolsForSubagents(registry: ToolRegistry): string[] {
  return registry
    .list()
    .filter((entry) => entry.metadata.agentCallable && !isSubagentTool(entry.tool))
    .map((entry) => entry.metadata.name)
    .sort();
}

function nameProblems(definition: AgentDefinitionFile, registry: ToolRegistry): Problem[] {
  const existing = registry.get(definition.name);
  if (!existing || isSubagentTool(existing.tool)) return [];
  return [{ path: ['name'], message: `"${definition.name}" is already the name of a tool; choose another name` }];
}

function inputProblems(definition: AgentDefinitionFile): Problem[] {
  const problems: Problem[] = [];
  const names = new Set<string>();
  definition.inputs.forEach((input, i) => {
    if (names.has(input.name)) problems.push({ path: ['inputs', i, 'name'], message: `the input "${input.name}" is declared twice` });
    names.add(input.name);
  });
  try {
    for (const ref of collectReferences(definition.system)) {
      if (!names.has(ref.variable)) {
        problems.push({
          path: ['system'],
          message: `{${ref.variable}} is not an input of this agent (inputs: ${[...names].join(', ') || 'none'}); write {{ and }} for literal braces`,
        });
      }
    }
  } catch (error) {
    problems.push({ path: ['system'], message: (error as Error).message });
  }
  return problems;
}

function allowListProblems(definition: AgentDefinitionFile, registry: ToolRegistry, agentNames: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  // The nearest names, not the whole list: a dozen-odd tool names hide the one meant (as for a prompt's unknown tool).
  const hint = (name: string) => {
    const near = nearestNames(name, toolsForSubagents(registry));
    return near.length ? `did you mean ${near.map((n) => `"${n}"`).join(', ')}?` : 'no agent tool has a similar name (`codewiki tools` lists them)';
  };
  definition.tools.forEach((name, i) => {
    const path = ['tools', i];
    const entry = registry.get(name);
    if (seen.has(name)) problems.push({ path, message: `"${name}" is listed twice` });
    else if (agentNames.has(name) || isSubagentTool(entry?.tool))
      problems.push({ path, message: `"${name}" is a sub-agent, and a sub-agent cannot call another sub-agent` });
    else if (!entry) problems.push({ path, message: `unknown tool "${name}"; ${hint(name)}` });
    else if (!entry.metadata.agentCallable) problems.push({ path, message: `"${name}" is not available to agents (it is workflow only); ${hint(name)}` });
    seen.add(name);
  });
  return problems;
}

function toDiagnostic(problem: Problem, file: string, positions: PositionIndex): Diagnostic {
  return { file, ...positions.locate(problem.path, problem.atKey), field: formatFieldPath(problem.path), message: problem.message, severity: 'error' };
}

/** zod's issues as located problems: an unknown field points at its key, a bad value at the value. */
function schemaProblems(error: z.ZodError): Problem[] {
  return error.issues.flatMap<Problem>((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key], atKey: true, message: `unknown field "${key}"` }));
    return [{ path, message: issue.message }];
  });
}
