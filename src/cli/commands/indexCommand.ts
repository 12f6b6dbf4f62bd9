import { EXIT } from '../cliErrors';
import { parseCliArgs } from '../parseCliArgs';
import { describeIndex, showIndexProgress } from './indexProgress';
import { loadEngine } from './loadEngine';

export const INDEX_USAGE = `codewiki index [--workspace DIR] [--rebuild] [--json]
  build or update the workspace's code index (symbols, ranked search, file graph), saved in
  CodeWiki's cache; prints files, definitions, time and size. Only changed files are read again;
  --rebuild starts from nothing`;

/** `codewiki index`: what `ask` and the tools would otherwise build on first use, now, with its figures. */
export async function indexCommand(argv: string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseCliArgs('index', argv, {
    options: { workspace: { type: 'string', short: 'w' }, rebuild: { type: 'boolean' }, json: { type: 'boolean' } },
  });
  const engine = await loadEngine(values.workspace);
  const stopProgress = showIndexProgress(engine.codeIndex, io.stderr);
  try {
    const status = values.rebuild ? await engine.codeIndex.rebuild() : await engine.codeIndex.update();
    stopProgress();
    for (const warning of status.warnings ?? []) io.stderr.write(`! ${warning}\n`);
    io.stdout.write(values.json ? `${JSON.stringify({ workspace: engine.workspace.roots, ...status }, null, 2)}\n` : `${describeIndex(status)}\n`);
    return EXIT.ok;
  } finally {
    stopProgress();
    await engine.codeIndex.dispose();
  }
}
