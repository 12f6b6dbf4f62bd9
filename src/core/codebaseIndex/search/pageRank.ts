/** A directed weighted graph in compressed rows: the out-edges of node i are targets[start[i]..start[i+1]). */
export interface WeightedGraph {
  nodes: number;
  start: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
  /** Sum of each node's out-edge weights. */
  outWeight: Float64Array;
}

const RESTART = 0.15;
const MAX_ITERATIONS = 15;
/**
 * L1 change between passes at which the ranks are taken as settled. The graph adds at most 0.3 to a file's
 * score, so 15 passes (85% of the walk's mass placed) order files as a full convergence would (bench/eval:
 * the same top-5 counts) at half the cost of a query.
 */
const TOLERANCE = 1e-3;

/**
 * PageRank with restart probability 0.15 (as Aider's repo map uses through networkx) by power iteration
 * over the compressed rows. `restartAt` says where restarts and the mass of files without out-edges go:
 * the seeds a question is about (personalized), or every live file (global). With out-edges capped per
 * file (fileGraph.ts) a pass over a 5,000-file graph is ~100,000 multiply-adds, a query a few ms.
 */
export function pageRank(graph: WeightedGraph, restartAt: ReadonlyMap<number, number>): Float64Array {
  const { nodes, start, targets, weights, outWeight } = graph;
  const restart = new Float64Array(nodes);
  let total = 0;
  for (const [node, value] of restartAt) if (node < nodes && value > 0) total += value;
  if (total === 0) return restart;
  for (const [node, value] of restartAt) if (node < nodes && value > 0) restart[node] = value / total;
  let rank = Float64Array.from(restart);
  let next = new Float64Array(nodes);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    next.fill(0);
    for (let node = 0; node < nodes; node++) {
      const mass = rank[node]!;
      if (mass === 0) continue;
      const out = outWeight[node]!;
      if (out === 0) {
        dangling += mass;
        continue;
      }
      const share = ((1 - RESTART) * mass) / out;
      for (let edge = start[node]!; edge < start[node + 1]!; edge++) next[targets[edge]!]! += share * weights[edge]!;
    }
    let change = 0;
    const restartMass = RESTART + (1 - RESTART) * dangling;
    for (let node = 0; node < nodes; node++) {
      const value = next[node]! + restartMass * restart[node]!;
      change += Math.abs(value - rank[node]!);
      next[node] = value;
    }
    [rank, next] = [next, rank];
    if (change < TOLERANCE) break;
  }
  return rank;
}

/** Hops a personalized walk takes from its seeds: after four, 0.85⁴ ≈ half the mass is placed and the rest spreads thin. */
const WALK_HOPS = 4;

/**
 * Personalized PageRank truncated to a few hops, walking out from the seeds only: the files a question's
 * best matches lean on (and what those lean on) gain rank, at the cost of the seeds' neighbourhood instead
 * of passes over the whole graph. Mass that reaches a file with no out-edges stops there.
 */
export function personalizedRank(graph: WeightedGraph, seeds: ReadonlyMap<number, number>): Map<number, number> {
  const { nodes, start, targets, weights, outWeight } = graph;
  let total = 0;
  for (const [node, value] of seeds) if (node < nodes && value > 0) total += value;
  const rank = new Float64Array(nodes);
  const reached: number[] = [];
  if (total === 0) return new Map();
  let mass = new Float64Array(nodes);
  let next = new Float64Array(nodes);
  let frontier: number[] = [];
  for (const [node, value] of seeds) {
    if (node >= nodes || value <= 0) continue;
    if (mass[node] === 0) frontier.push(node);
    mass[node]! += value / total;
  }
  for (let hop = 0; hop <= WALK_HOPS && frontier.length; hop++) {
    const following: number[] = [];
    for (const node of frontier) {
      const here = mass[node]!;
      mass[node] = 0;
      if (rank[node] === 0) reached.push(node);
      rank[node]! += RESTART * here;
      const out = outWeight[node]!;
      if (out === 0 || hop === WALK_HOPS) continue;
      const share = ((1 - RESTART) * here) / out;
      for (let edge = start[node]!; edge < start[node + 1]!; edge++) {
        const target = targets[edge]!;
        if (next[target] === 0) following.push(target);
        next[target]! += share * weights[edge]!;
      }
    }
    [mass, next] = [next, mass];
    frontier = following;
  }
  return new Map(reached.map((node) => [node, rank[node]!]));
}
