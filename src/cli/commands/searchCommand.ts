import type { CodeSearchHit, SymbolMatch } from '../../core/codebaseIndex/codeIndexTypes';
import { kindLabel } from '../../core/codebaseIndex/tools/renderIndexResults';
import { CliError, EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { showIndexProgress } from './indexProgress';
import { loadEngine } from './loadEngine';

export const SEARCH_USAGE = `codewiki search "QUERY" [--workspace DIR] [--limit N] [--json]
  the code index's ranked results for a name or a question in plain words, as path:line with
  the definition or line found there: the same ranking the agent's first turn starts from`;

interface SearchRow {
  path: string;
  line: number;
  /** `function countWords` for a definition, empty for a matching line. */
  what: string;
  text: string;
}

/** `codewiki search`: exact definitions of the names the query spells first, then the ranked files with their best lines. */
export async function searchCommand(argv: string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const { values, positionals } = parseCliArgs('search', argv, {
    allowPositionals: true,
    options: { workspace: { type: 'string', short: 'w' }, limit: { type: 'string' }, json: { type: 'boolean' } },
  });
  const query = positionals.join(' ').trim();
  if (!query) throw new CliError(`expected a query\n\n${SEARCH_USAGE}`);
  const limit = values.limit === undefined ? 10 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new CliError(`--limit ${values.limit}: expected a whole number from 1 to 100`);
  const engine = await loadEngine(values.workspace);
  const stopProgress = showIndexProgress(engine.codeIndex, io.stderr);
  try {
    const status = await engine.codeIndex.update();
    stopProgress();
    for (const warning of status.warnings ?? []) io.stderr.write(`! ${warning}\n`);
    const context = await engine.codeIndex.questionContext(query);
    const hits = await engine.codeIndex.searchCode(query, { limit });
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ query, definitions: context.definitions, hits }, null, 2)}\n`);
      return hits.length ? EXIT.ok : EXIT.failed;
    }
    const rows = [...context.definitions.map(definitionRow), ...hits.flatMap(hitRows)];
    const seen = new Set<string>();
    for (const row of rows) {
      const key = `${row.path}:${row.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      io.stdout.write(`${key}  ${row.what ? `${row.what}: ` : ''}${row.text}\n`);
    }
    if (!rows.length) io.stderr.write(`nothing in the index matches "${query}"\n`);
    return rows.length ? EXIT.ok : EXIT.failed;
  } finally {
    stopProgress();
    await engine.codeIndex.dispose();
  }
}

function definitionRow(definition: SymbolMatch): SearchRow {
  return {
    path: definition.path,
    line: definition.line,
    what: `${kindLabel(definition)} ${definition.name}`,
    text: definition.signature,
  };
}

/** A file's matching definitions, else its best lines, else the file itself (ranked for its path or head). */
function hitRows(hit: CodeSearchHit): SearchRow[] {
  if (hit.symbols.length)
    return hit.symbols.map((symbol) => ({ path: hit.path, line: symbol.line, what: `${symbol.kind} ${symbol.name}`, text: symbol.signature }));
  if (hit.lines.length) return hit.lines.slice(0, 1).map((line) => ({ path: hit.path, line: line.line, what: '', text: line.text }));
  return [{ path: hit.path, line: 1, what: '', text: '(the file matches by its name or opening lines)' }];
}
