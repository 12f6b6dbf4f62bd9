import { type Chain, closingBrace, IDENTIFIER, type PathPart, readChain, ROOTS, stringEnd } from './dialectChain';
import type { DialectOptions } from './dialectOptions';

/**
 * Seed 002's references and their CodeWiki equivalents:
 *   ${input.x.path}           → {x.path}           (a declared input)
 *   ${context.x}              → {x}                (an input the caller gives: CodeWiki has no platform context)
 *   ${steps.id.output.path}   → {<id's output variable>.path}
 *   ${steps.id.error}         → {error}            (only inside that step's fallback)
 *   ${env.X}                  → the value of X, read at load time, if the user allowed X
 * `.size` is the count of a list or text, as in the seed (CodeWiki's `.length`); a field really
 * named size is read with `["size"]`.
 */

export interface DialectScope {
  /** Declared inputs; undefined when the chain has no `input:` section (then every `${input.x}` declares x). */
  declaredInputs: ReadonlySet<string> | undefined;
  /** Inputs the chain reads without declaring them, in order of first use. */
  implicitInputs: Map<string, { from: 'input' | 'context' }>;
  /** Seed step id → CodeWiki output variable. */
  stepVariables: ReadonlyMap<string, string>;
  /** Inside a fallback: the step whose failure it handles (its `${steps.id.error}` is `{error}`). */
  fallbackOf?: string;
  options: DialectOptions;
}

export class DialectReferenceError extends Error {
  /** `needle` is the text to point at in the file (a `${` or the reference itself). */
  constructor(
    message: string,
    readonly needle: string,
  ) {
    super(message);
  }
}

/**
 * A seed string → a CodeWiki template. Each `${…}` must be one reference (expressions belong in
 * `condition`); the text around it keeps its literal braces by doubling them. Problems are
 * reported through `report` with the occurrence of `${` they are at, and translation goes on,
 * so one pass lists every problem in the string.
 */
export function translateTemplate(template: string, scope: DialectScope, report: (error: DialectReferenceError, occurrence: number) => void): string {
  let out = '';
  let occurrence = 0;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === '$' && template[i + 1] === '{') {
      const close = closingBrace(template, i + 2);
      const inner = template.slice(i + 2, close < 0 ? template.length : close);
      try {
        if (close < 0) throw new DialectReferenceError(`"\${${inner}" is not closed with "}"`, '${');
        out += referenceText(inner.trim(), scope);
      } catch (error) {
        if (!(error instanceof DialectReferenceError)) throw error;
        report(error, occurrence);
      }
      occurrence++;
      if (close < 0) break;
      i = close;
    } else {
      out += ch === '{' ? '{{' : ch === '}' ? '}}' : ch;
    }
  }
  return out;
}

function referenceText(inner: string, scope: DialectScope): string {
  const written = `\${${inner}}`;
  const chain = readChain(inner, 0);
  if (!chain) throw new DialectReferenceError(`"${written}" is not a reference: it must start with input., steps., env. or context.`, '${');
  if (chain.end !== inner.length)
    throw new DialectReferenceError(
      `"${written}": only one reference may stand in \${…} here; expressions such as comparisons belong in a step's condition`,
      '${',
    );
  const target = resolveChain(chain, scope, '${', written);
  return target.kind === 'literal' ? escapeBraces(target.value) : `{${target.text}}`;
}

/**
 * A seed condition → a CodeWiki condition. The seed wraps the whole expression in `${…}`
 * (`"${steps.search.output.size > 0}"`); the wrappers are dropped and every reference in the
 * expression is rewritten, so `search_results.length > 0` is what CodeWiki evaluates.
 */
export function translateCondition(condition: string, scope: DialectScope): { text: string; errors: DialectReferenceError[] } {
  const errors: DialectReferenceError[] = [];
  const expression = unwrapDollars(condition);
  let out = '';
  let i = 0;
  while (i < expression.length) {
    const ch = expression[i];
    if (ch === '"' || ch === "'") {
      const end = stringEnd(expression, i);
      out += expression.slice(i, end);
      i = end;
      continue;
    }
    IDENTIFIER.lastIndex = i;
    const word = /[A-Za-z_]/.test(ch) && !/[\w$.]/.test(expression[i - 1] ?? '') ? IDENTIFIER.exec(expression) : null;
    if (!word || !ROOTS.has(word[0])) {
      const length = word ? word[0].length : 1;
      out += expression.slice(i, i + length);
      i += length;
      continue;
    }
    const chain = readChain(expression, i);
    if (!chain) {
      errors.push(new DialectReferenceError(`"${word[0]}" must be followed by a name, e.g. ${word[0]}.name`, word[0]));
      out += word[0];
      i += word[0].length;
      continue;
    }
    try {
      const target = resolveChain(chain, scope, chain.source);
      out += target.kind === 'literal' ? JSON.stringify(target.value) : target.text;
    } catch (error) {
      if (!(error instanceof DialectReferenceError)) throw error;
      errors.push(error);
      out += 'null';
    }
    i = chain.end;
  }
  return { text: out.trim(), errors };
}

/** The step a fallback's condition names, for `${steps.id.error}` (the only condition a fallback takes). */
export function fallbackTarget(condition: string): string | undefined {
  const match = /^\s*(?:\$\{\s*steps\.([A-Za-z0-9_-]+)\.error\s*\}|steps\.([A-Za-z0-9_-]+)\.error)\s*$/.exec(condition);
  return match?.[1] ?? match?.[2];
}

type Target = { kind: 'reference'; text: string } | { kind: 'literal'; value: string };

/** `label` is how the reference is quoted in messages: as written, `${…}` included, when it stood alone. */
function resolveChain(chain: Chain, scope: DialectScope, needle: string, label = chain.source): Target {
  const fail = (message: string) => new DialectReferenceError(`"${label}": ${message}`, needle);
  if (chain.path.some((p) => p.kind === 'wildcard'))
    throw fail('"[*]" has no CodeWiki equivalent in a reference; pick the field with the producing step\'s output.select (e.g. "$.results[*].url") instead');
  switch (chain.root) {
    case 'env': {
      if (chain.path.length) throw fail('an environment variable is text; it has no fields');
      if (!scope.options.allowedEnv.includes(chain.name))
        throw fail(
          `the environment variable ${chain.name} is not in the allow-list; add it to the user setting codewiki.dialect.allowedEnv ` +
            `(CLI: CODEWIKI_ALLOWED_ENV=${chain.name}) if this chain may read it${scope.options.allowedEnv.length ? ` (allowed now: ${scope.options.allowedEnv.join(', ')})` : ''}`,
        );
      const value = scope.options.env[chain.name];
      if (value === undefined) throw fail(`the environment variable ${chain.name} is allowed but not set`);
      return { kind: 'literal', value };
    }
    case 'input':
    case 'context': {
      if (chain.root === 'input' && scope.declaredInputs && !scope.declaredInputs.has(chain.name))
        throw fail(`"${chain.name}" is not declared under input: (declared: ${[...scope.declaredInputs].join(', ') || 'none'})`);
      if (!scope.declaredInputs?.has(chain.name) && !scope.implicitInputs.has(chain.name)) scope.implicitInputs.set(chain.name, { from: chain.root });
      return { kind: 'reference', text: chain.name + pathText(chain.path) };
    }
    case 'steps': {
      const variable = scope.stepVariables.get(chain.name);
      if (variable === undefined) throw fail(`there is no step "${chain.name}" (steps: ${[...scope.stepVariables.keys()].join(', ') || 'none'})`);
      if (chain.field === 'error') {
        if (scope.fallbackOf !== chain.name)
          throw fail(`a step's error can be read only in its own fallback (error_handling.fallback with condition "\${steps.${chain.name}.error}")`);
        if (chain.path.length) throw fail('an error is text; it has no fields');
        return { kind: 'reference', text: 'error' };
      }
      if (chain.field !== 'output') throw fail(`write steps.${chain.name}.output (or .error in its fallback); "${chain.field ?? ''}" is not part of a step`);
      return { kind: 'reference', text: variable + pathText(chain.path) };
    }
  }
}

function pathText(path: PathPart[]): string {
  return path
    .map((part) => {
      if (part.kind === 'name') return `.${part.name === 'size' ? 'length' : part.name}`;
      if (part.kind === 'index') return `[${part.index}]`;
      if (part.kind === 'key') return `[${JSON.stringify(part.key)}]`;
      return '[*]';
    })
    .join('');
}

/** `${a} > 0` → `(a) > 0`; a condition that is one `${…}` loses just the wrapper. */
function unwrapDollars(condition: string): string {
  const whole = /^\s*\$\{([\s\S]*)\}\s*$/.exec(condition);
  if (whole && closingBrace(condition, condition.indexOf('${') + 2) === condition.lastIndexOf('}')) return whole[1];
  let out = '';
  for (let i = 0; i < condition.length; i++) {
    if (condition[i] === '$' && condition[i + 1] === '{') {
      const close = closingBrace(condition, i + 2);
      if (close < 0) return out + condition.slice(i);
      out += `(${condition.slice(i + 2, close)})`;
      i = close;
    } else out += condition[i];
  }
  return out;
}

function escapeBraces(text: string): string {
  return text.replace(/[{}]/g, (brace) => brace + brace);
}
