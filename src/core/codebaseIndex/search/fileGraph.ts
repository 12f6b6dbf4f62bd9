import type { FileFacts } from '../codeIndexTypes';
import { eachMention } from '../parsing/mentionCounts';
import { base64 as toBase64, fromBase64 } from '../store/base64Arrays';
import { ImportResolver } from './importResolver';
import { pageRank, personalizedRank, type WeightedGraph } from './pageRank';
import type { SymbolTable } from './symbolTable';

/** An import says more than one shared name. */
const IMPORT_WEIGHT = 2;
/** A file's strongest out-edges only: the long tail of once-mentioned names adds cost to every query and little rank. */
const MAX_OUT_EDGES = 40;

/**
 * Files linked by what they use: A → B when A mentions a name B defines (weighted as Aider's repo map
 * weighs them: specific long names ×10, `_private` and names defined in many files ×0.1, repeated
 * mentions by their square root) or imports B. Built in one pass over the files' mentions; rebuilt
 * whole, lazily, after changes, since one changed definition re-weights edges from every file.
 */
/** The graph as saved with the index: typed arrays as base64, so a re-opened index need not rebuild it. */
export interface SavedGraph {
  nodes: number;
  start: string;
  targets: string;
  weights: string;
  fanIn: Array<[string, number]>;
}

export class FileGraph {
  private global: Float64Array | undefined;

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

  static restore(saved: SavedGraph): FileGraph {
    const start = new Int32Array(fromBase64(saved.start));
    const targets = new Int32Array(fromBase64(saved.targets));
    const weights = new Float64Array(fromBase64(saved.weights));
    const outWeight = new Float64Array(saved.nodes);
    for (let node = 0; node < saved.nodes; node++) for (let edge = start[node]!; edge < start[node + 1]!; edge++) outWeight[node]! += weights[edge]!;
    return new FileGraph({ nodes: saved.nodes, start, targets, weights, outWeight }, new Map(saved.fanIn));
  }

  save(): SavedGraph {
    const { nodes, start, targets, weights } = this.graph;
    return { nodes, start: toBase64(start), targets: toBase64(targets), weights: toBase64(weights), fanIn: [...this.fanIn] };
  }

  /** Ranks per file id personalized to `focus` (file id → weight): what the files a question is about lean on. */
  rankAround(focus: ReadonlyMap<number, number>): ReadonlyMap<number, number> {
    return personalizedRank(this.graph, focus);
  }

  /** Ranks per file id for the whole workspace, computed once per graph (the repo map without a focus). */
  globalRank(live: (id: number) => boolean): Float64Array {
    if (!this.global) {
      const everyFile = new Map<number, number>();
      for (let id = 0; id < this.graph.nodes; id++) if (live(id)) everyFile.set(id, 1);
      this.global = pageRank(this.graph, everyFile);
    }
    return this.global;
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
  const kept = new Map<number, Array<[number, number]>>();
  for (const [node, out] of edges) kept.set(node, [...out].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_OUT_EDGES));
  const start = new Int32Array(nodes + 1);
  let total = 0;
  for (let node = 0; node < nodes; node++) {
    start[node] = total;
    total += kept.get(node)?.length ?? 0;
  }
  start[nodes] = total;
  const targets = new Int32Array(total);
  const weights = new Float64Array(total);
  const outWeight = new Float64Array(nodes);
  for (let node = 0; node < nodes; node++) {
    let at = start[node]!;
    for (const [target, weight] of kept.get(node) ?? []) {
      targets[at] = target;
      weights[at++] = weight;
      outWeight[node]! += weight;
    }
  }
  return { nodes, start, targets, weights, outWeight };
}
