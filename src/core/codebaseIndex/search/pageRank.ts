/** A directed weighted graph in compressed rows: the out-edges of node i are targets[start[i]..start[i+1]). */
export interface WeightedGraph {
  nodes: number;
  start: Int32Array;
  targets: Int32Array;
  weights: Float64Array;
}

const DAMPING = 0.85;
const MAX_ITERATIONS = 50;
const TOLERANCE = 1e-6;

/**
 * PageRank with a personalization vector (restarts and dangling mass go where it points, as in Aider's
 * repo map), so "important" means important to what the question is about. Without one, restarts are
 * uniform over `nodes`' live members. Returns a rank per node summing to 1.
 */
export function pageRank(graph: WeightedGraph, personalization?: ReadonlyMap<number, number>, live?: (node: number) => boolean): Float64Array {
  const { nodes, start, targets, weights } = graph;
  const restart = new Float64Array(nodes);
  if (personalization && personalization.size) {
    let total = 0;
    for (const value of personalization.values()) total += value;
    for (const [node, value] of personalization) if (node < nodes) restart[node] = value / total;
  } else {
    let count = 0;
    for (let node = 0; node < nodes; node++) if (!live || live(node)) count++;
    for (let node = 0; node < nodes; node++) if (!live || live(node)) restart[node] = 1 / Math.max(1, count);
  }
  const outWeight = new Float64Array(nodes);
  for (let node = 0; node < nodes; node++) {
    for (let edge = start[node]!; edge < start[node + 1]!; edge++) outWeight[node]! += weights[edge]!;
  }
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
      for (let edge = start[node]!; edge < start[node + 1]!; edge++) next[targets[edge]!]! += (DAMPING * mass * weights[edge]!) / out;
    }
    let change = 0;
    for (let node = 0; node < nodes; node++) {
      const value = next[node]! + ((1 - DAMPING) + DAMPING * dangling) * restart[node]!;
      change += Math.abs(value - rank[node]!);
      next[node] = value;
    }
    [rank, next] = [next, rank];
    if (change < TOLERANCE) break;
  }
  return rank;
}
