import jsep from 'jsep';
import type { Variables } from '../template/renderTemplate';

/**
 * Step conditions such as `selected_files.length > 0 && mode == "deep"`. jsep parses the text
 * into an AST and this small interpreter evaluates it: no `eval`, no `new Function`, no calls,
 * and member access limited to own properties, so a workflow file cannot run code.
 */
export interface CompiledCondition {
  source: string;
  /** Root variable names the expression reads: these become the step's dependencies. */
  variables: string[];
  evaluate(variables: Variables): boolean;
}

class ConditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConditionError';
  }
}

const BINARY: Record<string, (a: unknown, b: unknown) => unknown> = {
  '==': (a, b) => a == b, // eslint-disable-line eqeqeq -- loose equality is what YAML authors expect for "1" == 1
  '!=': (a, b) => a != b, // eslint-disable-line eqeqeq
  '===': (a, b) => a === b,
  '!==': (a, b) => a !== b,
  '<': (a, b) => (a as number) < (b as number),
  '<=': (a, b) => (a as number) <= (b as number),
  '>': (a, b) => (a as number) > (b as number),
  '>=': (a, b) => (a as number) >= (b as number),
  '+': (a, b) => (a as number) + (b as number),
  '-': (a, b) => (a as number) - (b as number),
  '*': (a, b) => (a as number) * (b as number),
  '/': (a, b) => (a as number) / (b as number),
  '%': (a, b) => (a as number) % (b as number),
};

const BLOCKED_PROPERTIES = new Set(['__proto__', 'constructor', 'prototype']);

export function compileCondition(source: string): CompiledCondition {
  let ast: jsep.Expression;
  try {
    ast = jsep(source);
  } catch (error) {
    throw new ConditionError(`cannot parse condition "${source}": ${(error as Error).message}`);
  }
  const variables = new Set<string>();
  check(ast, variables);
  return {
    source,
    variables: [...variables],
    evaluate: (vars) => truthy(evaluate(ast, vars)),
  };
}

/** Rejects unsupported syntax at load time, and collects the variables read. */
function check(node: jsep.Expression, variables: Set<string>): void {
  switch (node.type) {
    case 'Literal':
      return;
    case 'Identifier':
      variables.add(node.name as string);
      return;
    case 'MemberExpression': {
      check(node.object as jsep.Expression, variables);
      const property = node.property as jsep.Expression;
      if (node.computed) check(property, variables);
      else if (BLOCKED_PROPERTIES.has(property.name as string)) throw new ConditionError(`"${property.name}" cannot be read in a condition`);
      return;
    }
    case 'UnaryExpression':
      if (!['!', '-', '+'].includes(node.operator as string)) throw new ConditionError(`operator "${node.operator}" is not supported`);
      return check(node.argument as jsep.Expression, variables);
    case 'BinaryExpression':
      if (!((node.operator as string) in BINARY) && node.operator !== '&&' && node.operator !== '||')
        throw new ConditionError(`operator "${node.operator}" is not supported`);
      check(node.left as jsep.Expression, variables);
      return check(node.right as jsep.Expression, variables);
    case 'ConditionalExpression':
      check(node.test as jsep.Expression, variables);
      check(node.consequent as jsep.Expression, variables);
      return check(node.alternate as jsep.Expression, variables);
    case 'ArrayExpression':
      for (const element of node.elements as jsep.Expression[]) check(element, variables);
      return;
    default:
      throw new ConditionError(`${node.type} is not allowed in a condition (no calls or assignments)`);
  }
}

function evaluate(node: jsep.Expression, vars: Variables): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value;
    case 'Identifier':
      return vars.get(node.name as string);
    case 'MemberExpression': {
      const target = evaluate(node.object as jsep.Expression, vars);
      const property = node.computed ? evaluate(node.property as jsep.Expression, vars) : (node.property as jsep.Expression).name;
      return readProperty(target, property);
    }
    case 'UnaryExpression': {
      const value = evaluate(node.argument as jsep.Expression, vars);
      return node.operator === '!' ? !truthy(value) : node.operator === '-' ? -(value as number) : +(value as number);
    }
    case 'BinaryExpression': {
      if (node.operator === '&&') return truthy(evaluate(node.left as jsep.Expression, vars)) && evaluate(node.right as jsep.Expression, vars);
      if (node.operator === '||') {
        const left = evaluate(node.left as jsep.Expression, vars);
        return truthy(left) ? left : evaluate(node.right as jsep.Expression, vars);
      }
      return BINARY[node.operator as string](evaluate(node.left as jsep.Expression, vars), evaluate(node.right as jsep.Expression, vars));
    }
    case 'ConditionalExpression':
      return truthy(evaluate(node.test as jsep.Expression, vars))
        ? evaluate(node.consequent as jsep.Expression, vars)
        : evaluate(node.alternate as jsep.Expression, vars);
    case 'ArrayExpression':
      return (node.elements as jsep.Expression[]).map((element) => evaluate(element, vars));
    default:
      throw new ConditionError(`${node.type} is not allowed in a condition`);
  }
}

function readProperty(target: unknown, property: unknown): unknown {
  if (target === null || target === undefined) return undefined;
  if (typeof property !== 'string' && typeof property !== 'number') return undefined;
  if (BLOCKED_PROPERTIES.has(String(property))) return undefined;
  if (property === 'length' && (typeof target === 'string' || Array.isArray(target))) return target.length;
  if (typeof target !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(target, property) ? (target as Record<string | number, unknown>)[property] : undefined;
}

/** Empty lists and objects count as false, so `if: selected_files` reads naturally. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}
