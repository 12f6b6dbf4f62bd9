/**
 * Steps depend on the steps whose output variables they reference. The executor runs a step
 * as soon as its dependencies settle, so the graph (not the file order) decides parallelism;
 * file order only breaks ties and orders logs.
 */
export interface GraphNode {
  index: number;
  id: string;
  outputVariable?: string;
  /** Variable names the step reads (inputs, templates, condition, for_each). */
  reads: string[];
}

export interface DependencyGraph {
  /** For each step index, the indices of steps it waits for. */
  dependencies: number[][];
}

export class DependencyCycleError extends Error {
  constructor(
    readonly cycle: number[],
    names: string[],
  ) {
    super(`steps form a cycle: ${names.join(' → ')}`);
    this.name = 'DependencyCycleError';
  }
}

export function buildDependencyGraph(nodes: GraphNode[]): DependencyGraph {
  const producer = new Map<string, number>();
  for (const node of nodes) if (node.outputVariable) producer.set(node.outputVariable, node.index);
  const dependencies = nodes.map((node) => {
    const deps = new Set<number>();
    for (const name of node.reads) {
      const from = producer.get(name);
      if (from !== undefined) deps.add(from);
    }
    return [...deps].sort((a, b) => a - b);
  });
  const cycle = findCycle(dependencies);
  if (cycle)
    throw new DependencyCycleError(
      cycle,
      [...cycle, cycle[0]].map((i) => nodes[i].id),
    );
  return { dependencies };
}

function findCycle(dependencies: number[][]): number[] | undefined {
  const state = new Array<0 | 1 | 2>(dependencies.length).fill(0); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  const visit = (index: number): number[] | undefined => {
    state[index] = 1;
    stack.push(index);
    for (const dep of dependencies[index]) {
      if (state[dep] === 1) return stack.slice(stack.indexOf(dep));
      if (state[dep] === 0) {
        const found = visit(dep);
        if (found) return found;
      }
    }
    stack.pop();
    state[index] = 2;
    return undefined;
  };
  for (let i = 0; i < dependencies.length; i++) {
    if (state[i] === 0) {
      const found = visit(i);
      if (found) return found;
    }
  }
  return undefined;
}
