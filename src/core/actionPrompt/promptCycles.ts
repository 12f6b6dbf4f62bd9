import type { CompiledActionPrompt, CompiledStep } from './compiledActionPrompt';
import { type Diagnostic, formatFieldPath } from '../yaml/diagnostics';

interface NestedCall {
  callee: string;
  step: CompiledStep;
}

/**
 * Prompts that call each other in a loop (`ping` → `pong` → `ping`) would only fail at run time,
 * several levels deep. Found at load instead: every prompt on a cycle gets an error at the step
 * that makes its call, naming the whole cycle. Returns those errors by prompt id.
 */
export function findPromptCycles(prompts: ReadonlyMap<string, CompiledActionPrompt>): Map<string, Diagnostic[]> {
  const calls = new Map<string, NestedCall[]>();
  for (const [id, prompt] of prompts)
    calls.set(
      id,
      nestedCalls(prompt.steps).filter((c) => prompts.has(c.callee)),
    );

  const errors = new Map<string, Diagnostic[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'open');
    stack.push(id);
    for (const call of calls.get(id) ?? []) {
      if (state.get(call.callee) === 'open') report(stack.slice(stack.indexOf(call.callee)));
      else if (!state.has(call.callee)) visit(call.callee);
    }
    stack.pop();
    state.set(id, 'done');
  };
  const report = (cycle: string[]) => {
    const names = [...cycle, cycle[0]].join(' → ');
    cycle.forEach((id, i) => {
      const prompt = prompts.get(id)!;
      const next = cycle[(i + 1) % cycle.length];
      const call = calls.get(id)!.find((c) => c.callee === next)!;
      const path = [...call.step.fieldPath, 'tool'];
      const list = errors.get(id) ?? [];
      list.push({
        file: prompt.file,
        ...prompt.positions.locate(path),
        field: formatFieldPath(path),
        message: `action prompts call each other in a cycle: ${names}; a nested prompt must not lead back to its caller`,
        severity: 'error',
      });
      errors.set(id, list);
    });
  };
  for (const id of [...prompts.keys()].sort()) if (!state.has(id)) visit(id);
  return errors;
}

function nestedCalls(steps: CompiledStep[]): NestedCall[] {
  return steps.flatMap((step) => [{ callee: step.tool, step }, ...nestedCalls(step.fallback)]);
}
