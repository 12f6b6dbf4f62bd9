import type { z } from 'zod';
import type { RegisteredTool } from '../tools/toolMetadata';

/**
 * A step that calls another action prompt passes it values for that prompt's input_variables.
 * LangChain's parse error for a wrong one ("Invalid input: expected number") says neither which
 * prompt nor which input; this check runs first and says all three, e.g.
 * `nested prompt "summarize-one": input "limit" expects a number, got "ten"`.
 */
export function checkNestedPromptArguments(entry: RegisteredTool, args: Record<string, unknown>): void {
  if (entry.metadata.category !== 'prompt') return;
  const schema = entry.tool.schema as z.ZodType;
  if (typeof (schema as { safeParse?: unknown }).safeParse !== 'function') return;
  const parsed = schema.safeParse(args);
  if (parsed.success) return;
  const problems = parsed.error.issues.map((issue) => {
    const input = String(issue.path[0] ?? '');
    if (!input) return issue.message;
    const given = args[input];
    if (given === undefined) return `input "${input}" is required${expectedOf(issue) ? ` (${expectedOf(issue)})` : ''}`;
    return `input "${input}" expects ${expectedOf(issue) ?? 'another value'}, got ${JSON.stringify(given)}`;
  });
  throw new Error(`nested prompt "${entry.metadata.name}": ${problems.join('; ')}`);
}

function expectedOf(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_type') return article(issue.expected);
  if (issue.code === 'invalid_value') return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_union') {
    const values = issue.errors.flat().flatMap((e) => (e.code === 'invalid_value' ? e.values : []));
    return values.length ? `one of ${values.map((v) => JSON.stringify(v)).join(', ')}` : undefined;
  }
  return undefined;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
