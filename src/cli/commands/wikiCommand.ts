import { relative, resolve } from 'node:path';
import { CliError, EXIT } from '../cliErrors';
import { DEFAULT_BASE_URL, modelProviderFromCli } from '../cliSettings';
import { parseCliArgs } from '../parseCliArgs';
import { count, showIndexProgress } from './indexProgress';
import { loadEngine } from './loadEngine';
import { isPartialShard } from '../../core/wiki/tools/wikiTools';
import { FOREIGN_FILE } from '../../core/wiki/pages/wikiPages';
import { executePrompt } from './runCommand';

export const WIKI_USAGE = `codewiki wiki [--workspace DIR] [--out DIR] [--check] [--structure-only] [--all] [--shard K/N]
  bring the workspace's wiki up to date (Markdown in .codewiki/wiki): every module's page from the code
  index (no model), then the overview of each module whose code changed, written by the model through the
  built-in "wiki" action prompt (edit or override it like any other)
  --check            list the stale pages and exit 1 when there are any (for CI); writes nothing
  --structure-only   the pages' structure only, in seconds, with no model
  --all              rewrite every page's overview, not only the stale ones
  --shard K/N        write only the Kth of N shares of the module pages (split a large wiki over CI jobs)
  --out DIR          the wiki folder (default .codewiki/wiki in the workspace)
  --base-url URL, --model M, --tool-model M, --log FILE   as for "codewiki run" (default endpoint ${DEFAULT_BASE_URL};
                     with none configured, the local model)`;

/** `codewiki wiki`: the wiki from the shell and from CI. */
export async function wikiCommand(argv: string[], io: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream }): Promise<number> {
  const { values } = parseCliArgs('wiki', argv, {
    options: {
      workspace: { type: 'string', short: 'w' },
      out: { type: 'string' },
      check: { type: 'boolean' },
      'structure-only': { type: 'boolean' },
      all: { type: 'boolean' },
      shard: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'tool-model': { type: 'string' },
      log: { type: 'string' },
    },
  });
  if (values.check && values['structure-only']) throw new CliError('--check writes nothing; leave out --structure-only');
  const shard = values.shard === undefined ? undefined : /^(\d+)\/(\d+)$/.exec(values.shard);
  if (shard !== undefined && !(shard && Number(shard[2]) >= 1 && Number(shard[1]) >= 1 && Number(shard[1]) <= Number(shard[2])))
    throw new CliError(`--shard ${values.shard}: expected K/N with 1 ≤ K ≤ N, e.g. 2/4`);
  const structureOnly = values.check || values['structure-only'];
  const models = structureOnly
    ? undefined
    : modelProviderFromCli({ baseUrl: values['base-url'], model: values.model, toolModel: values['tool-model'] }, process.env);
  const engine = await loadEngine(values.workspace, models?.provider, undefined, { wikiDir: values.out === undefined ? undefined : resolve(values.out) });
  const where = relative(process.cwd(), engine.wiki.wikiDir) || '.';
  const stopProgress = showIndexProgress(engine.codeIndex, io.stderr);
  try {
    if (values.check) {
      const stale = await engine.wiki.check();
      const orphans = await engine.wiki.orphans();
      stopProgress();
      for (const page of orphans) io.stderr.write(`note: ${page} is kept for its notes; its module no longer exists (move the notes, then delete the page)\n`);
      if (!stale.length) {
        io.stdout.write(`the wiki in ${where} is up to date\n`);
        return EXIT.ok;
      }
      io.stdout.write(`${stale.length} stale page${stale.length === 1 ? '' : 's'} in ${where}:\n`);
      for (const page of stale) io.stdout.write(`  ${page.page}: ${page.reason}\n`);
      io.stdout.write('run "codewiki wiki" to bring them up to date\n');
      return EXIT.failed;
    }
    const started = performance.now();
    // A shard of several writes only its own pages, when their prose is saved (see wiki_plan).
    const shardOnly = isPartialShard(values.shard);
    const { written, pages, wiki, plan } = shardOnly
      ? { ...(await engine.wiki.plan()), written: [] as string[], pages: 0 }
      : await engine.wiki.updateStructure();
    stopProgress();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const modules = `${count(wiki.modules.length)} module${wiki.modules.length === 1 ? '' : 's'} from ${count(wiki.codeFiles)} code files`;
    io.stderr.write(
      shardOnly
        ? `structure: ${modules}; shard ${values.shard} writes only its own pages\n`
        : `structure: ${modules}; ${written.length} of ${pages} pages written to ${where} in ${seconds} s\n`,
    );
    for (const page of plan.pages.filter((entry) => entry.foreign)) io.stderr.write(`warning: ${page.page} not written: ${FOREIGN_FILE}\n`);
    if (structureOnly) return EXIT.ok;
    if (!(await models!.ready())) {
      throw new CliError('no model configured for the prose: pass --model (and --base-url), set CODEWIKI_MODEL, or use --structure-only');
    }
    const entry = engine.catalog.entry('wiki');
    if (!entry?.prompt) throw new CliError('the "wiki" action prompt does not load; run "codewiki validate" on it');
    const inputs = { scope: values.all ? 'all' : 'stale', shard: values.shard ?? '1/1' };
    return await executePrompt(engine, entry.prompt, inputs, { dryRun: false, logFile: values.log, io });
  } finally {
    stopProgress();
    await engine.codeIndex.dispose();
  }
}
