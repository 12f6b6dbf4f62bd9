import type { CodeStructure, StructureFile } from '../codeIndexTypes';
import type { IndexContents } from '../indexContents';
import { ImportResolver } from './importResolver';

/**
 * The whole index as one plain value, for readers that look at everything at once (the wiki's module split
 * and pages): each file's definitions with how many other files use them, its global rank, and the file
 * graph's edges, and its imports resolved to files. Plain arrays, so it crosses a worker boundary as it is.
 */
export function codeStructure(contents: IndexContents): CodeStructure {
  const graph = contents.fileGraph();
  const live = (id: number) => contents.byId(id) !== undefined;
  const rank = graph.graph.nodes ? graph.globalRank(live) : new Float64Array(0);
  const position = new Map<number, number>();
  const files: StructureFile[] = [];
  for (const facts of contents.all()) {
    const id = contents.idOf(facts.path)!;
    position.set(id, files.length);
    files.push({
      path: facts.path,
      language: facts.language,
      hash: facts.hash,
      size: facts.size,
      rank: rank[id] ?? 0,
      head: facts.head,
      ...(facts.generated ? { generated: true } : {}),
      ...(facts.skipped ? { skipped: facts.skipped } : {}),
      symbols: facts.symbols.map((symbol) => ({ ...symbol, uses: graph.fanIn.get(symbol.name) ?? 0 })),
    });
  }
  const edges: Array<[number, number, number]> = [];
  const { start, targets, weights } = graph.graph;
  for (const [id, from] of position) {
    if (id >= graph.graph.nodes) continue;
    for (let edge = start[id]!; edge < start[id + 1]!; edge++) {
      const to = position.get(targets[edge]!);
      if (to !== undefined) edges.push([from, to, weights[edge]!]);
    }
  }
  const resolver = new ImportResolver([...position].map(([id, at]) => [id, files[at]!.path]));
  const imports: Array<[number, number]> = [];
  for (const [id, from] of position) {
    for (const spec of contents.byId(id)!.imports) {
      for (const target of resolver.resolve(spec, files[from]!.path)) {
        const to = position.get(target);
        if (to !== undefined && to !== from) imports.push([from, to]);
      }
    }
  }
  return { files, edges, imports };
}
