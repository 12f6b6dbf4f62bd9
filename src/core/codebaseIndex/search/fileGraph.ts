import type { FileFacts } from '../codeIndexTypes';
import { eachMention } from '../parsing/mentionCounts';
import { ImportResolver } from './importResolver';
import { pageRank, type WeightedGraph } from './pageRank';
import type { SymbolTable } from './symbolTable';

/** An import says more than one shared name. */
const IMPORT_WEIGHT = 2;

/**
 * Files linked by what they use: A → B when A mentions a name B defines (weighted as Aider's repo map
 * weighs them: specific long names ×10, `_private` and names defined in many files ×0.1, repeated
 * mentions by their square root) or imports B. Built in one pass over the files' mentions; rebuilt
 * whole, lazily, after changes, since one changed definition re-weights edges from every file.
 */
export class FileGraph {
  private constructor(
    readonly graph: WeightedGraph,
    /** Per defined name, how many other files mention it: how much of the codebase leans on it. */
    readonly fanIn: ReadonlyMap<string, number>,
  ) {}

  static build(files: ReadonlyMap<number, FileFacts>, symbols: SymbolTable): FileGraph {
    const nodes = files.size === 0 ? 0 : Math.max(...files.keys()) + 1;
    const edges = new Map<number, Map<number, number>>();
    const fanIn = new Map<string, number>();
    const addEdge = (from: number, to: number, weight: number) => {
      if (from === to || weight <= 0) return;
      let out = edges.get(from);
      if (!out) edges.set(from, (out = new Map()));
      out.set(to, (out.get(to) ?? 0) + weight);
    };
    const definersOf = new Map<string, number[]>();
    const definers = (name: string): number[] => {
      let found = definersOf.get(name);
      if (!found) definersOf.set(name, (found = [...new Set(symbols.exact(name).map((ref) => ref.file))]));
      return found;
    };
    for (const [id, facts] of files) {
      for (const [name, count] of eachMention(facts.mentions)) {
        if (!symbols.has(name)) continue;
        const targets = definers(name);
        const others = targets.length - (targets.includes(id) ? 1 : 0);
        if (others === 0) continue;
        fanIn.set(name, (fanIn.get(name) ?? 0) + 1);
        const weight = nameWeight(name, targets.length) * Math.sqrt(count);
        for (const target of targets) addEdge(id, target, weight);
      }
    }
    const resolver = new ImportResolver([...files].map(([id, facts]) => [id, facts.path]));
    for (const [id, facts] of files) {
      for (const spec of facts.imports) {
        const targets = resolver.resolve(spec, facts.path);
        for (const target of targets) addEdge(id, target, IMPORT_WEIGHT / targets.length);
      }
    }
    return new FileGraph(compress(nodes, edges), fanIn);
  }

  /** Ranks per file id; `focus` (file id → weight) personalizes it to what a question is about. */
  rank(focus?: ReadonlyMap<number, number>, live?: (id: number) => boolean): Float64Array {
    return pageRank(this.graph, focus, live);
  }
}

function nameWeight(name: string, definerCount: number): number {
  let weight = 1;
  const compound = /[a-z][A-Z]|[A-Za-z]_[A-Za-z]|[a-z]-[a-z]/.test(name);
  if (compound && name.length >= 8) weight *= 10;
  if (name.startsWith('_')) weight *= 0.1;
  if (definerCount > 5) weight *= 0.1;
  return weight;
}

function compress(nodes: number, edges: Map<number, Map<number, number>>): WeightedGraph {
  const start = new Int32Array(nodes + 1);
  let total = 0;
  for (let node = 0; node < nodes; node++) {
    start[node] = total;
    total += edges.get(node)?.size ?? 0;
  }
  start[nodes] = total;
  const targets = new Int32Array(total);
  const weights = new Float64Array(total);
  for (let node = 0; node < nodes; node++) {
    let at = start[node]!;
    for (const [target, weight] of edges.get(node) ?? []) {
      targets[at] = target;
      weights[at++] = weight;
    }
  }
  return { nodes, start, targets, weights };
}
