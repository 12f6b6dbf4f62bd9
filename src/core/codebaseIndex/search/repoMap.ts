import type { RepoMap, SymbolDef } from '../codeIndexTypes';
import { estimateTokens } from '../../llm/tokenEstimate';
import type { IndexContents } from '../indexContents';
import { rankFiles } from './rankFiles';

/** Kinds a map shows: what a reader navigates by, not every variable. */
const MAPPED_KINDS = new Set(['class', 'interface', 'type', 'enum', 'struct', 'trait', 'module', 'function', 'method', 'macro']);
const MAX_FILES = 300;
/** Constructors and dunder methods say little a reader navigates by; every class has them. */
const BOILERPLATE = /^(__\w+__|constructor|init|new|New|String|toString|Error|default)$/;
const MAX_SIGNATURE = 110;
const FOCUS_FILES = 30;

interface MapEntry {
  path: string;
  fileRank: number;
  symbol: SymbolDef;
  score: number;
}

/**
 * Aider's repo map for our index: files ranked by PageRank over the file graph (personalized to a
 * focus when there is one), each file's definitions ranked by how much the rest of the codebase uses
 * them, and as many of the best definitions as fit the token budget (found by binary search), rendered
 * as `path:` followed by `line│ signature`. Without a focus the map depends only on the workspace, so a
 * system prompt that carries it stays the same from question to question.
 */
export function buildRepoMap(contents: IndexContents, budgetTokens: number, focus?: string): RepoMap {
  const graph = contents.fileGraph();
  const live = (id: number) => contents.byId(id) !== undefined;
  const seeds = new Map<number, number>();
  if (focus) for (const file of rankFiles(contents, focus, { limit: FOCUS_FILES, useGraph: false })) seeds.set(file.id, file.score);
  const global = graph.graph.nodes ? graph.globalRank(live) : new Float64Array(0);
  const focused = seeds.size && graph.graph.nodes ? graph.rankAround(seeds) : undefined;
  const rankOf = (id: number) => (focused ? (focused.get(id) ?? 0) + 0.01 * (global[id] ?? 0) : (global[id] ?? 0));
  const files = [...contents.all()]
    .map((facts) => ({ facts, rank: rankOf(contents.idOf(facts.path)!) }))
    .filter((file) => file.facts.symbols.length > 0)
    .sort((a, b) => b.rank - a.rank || a.facts.path.localeCompare(b.facts.path))
    .slice(0, MAX_FILES);
  const entries: MapEntry[] = [];
  for (const { facts, rank: fileRank } of files) {
    for (const symbol of facts.symbols) {
      if (!MAPPED_KINDS.has(symbol.kind) || (symbol.container && BOILERPLATE.test(symbol.name))) continue;
      const use = graph.fanIn.get(symbol.name) ?? 0;
      const topLevel = symbol.container ? 0.5 : 1;
      entries.push({ path: facts.path, fileRank, symbol, score: fileRank * topLevel * (1 + Math.log1p(use)) });
    }
  }
  entries.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.symbol.line - b.symbol.line);
  let low = 0;
  let high = entries.length;
  let best = render([]);
  while (low <= high) {
    const middle = (low + high) >> 1;
    const map = render(entries.slice(0, middle));
    if (map.tokens <= budgetTokens) {
      best = map;
      low = middle + 1;
    } else high = middle - 1;
  }
  return best;
}

function render(entries: MapEntry[]): RepoMap {
  const byFile = new Map<string, { rank: number; symbols: SymbolDef[] }>();
  for (const entry of entries) {
    const file = byFile.get(entry.path) ?? { rank: entry.fileRank, symbols: [] };
    file.symbols.push(entry.symbol);
    byFile.set(entry.path, file);
  }
  const files = [...byFile].sort((a, b) => b[1].rank - a[1].rank || a[0].localeCompare(b[0]));
  const lines: string[] = [];
  for (const [path, file] of files) {
    lines.push(`${path}:`);
    for (const symbol of file.symbols.sort((a, b) => a.line - b.line))
      lines.push(`${String(symbol.line).padStart(5)}│ ${symbol.container ? '  ' : ''}${short(symbol.signature)}`);
  }
  const text = lines.join('\n');
  return { text, files: files.length, symbols: entries.length, tokens: estimateTokens(text) };
}

function short(signature: string): string {
  return signature.length > MAX_SIGNATURE ? `${signature.slice(0, MAX_SIGNATURE - 1)}…` : signature;
}
