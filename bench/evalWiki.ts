import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pinnedModels, startLocalModel } from '../test/realModel/localModelServer';
import { fmt, median } from './benchTable';
import { askQuestion, type AskOutcome } from './eval/endToEndEval';
import { loadEvalRepos, type EvalQuestion } from './eval/evalRepos';

const CLI = process.env.CODEWIKI_EVAL_CLI ?? resolve(__dirname, '..', 'dist', 'cli.js');
const QUESTION_TIMEOUT_MS = 6 * 60_000;

/** "How does X work" questions, right when the answer's first file is the one that does it. */
const HOW_QUESTIONS: Record<string, EvalQuestion[]> = {
  'gin-gonic/gin': [
    { question: 'How does gin find the handler for a request path?', files: ['tree.go', 'gin.go'] },
    { question: 'How does the Recovery middleware work?', files: ['recovery.go'] },
    { question: 'How does gin run a chain of middleware in order?', files: ['context.go'] },
    { question: 'How does gin bind a JSON request body to a struct?', files: ['binding/json.go'] },
    { question: 'How does gin render a JSON response?', files: ['render/json.go'] },
  ],
  'psf/requests': [
    { question: 'How does a session follow redirects?', files: ['src/requests/sessions.py'] },
    { question: 'How does HTTP Digest authentication work?', files: ['src/requests/auth.py'] },
    { question: 'How does requests retry failed connections?', files: ['src/requests/adapters.py'] },
    { question: 'How are cookies kept between requests of a session?', files: ['src/requests/cookies.py', 'src/requests/sessions.py'] },
    { question: 'How does requests decide which proxy to use for a URL?', files: ['src/requests/utils.py', 'src/requests/sessions.py'] },
  ],
};

/**
 * `npm run eval:wiki [-- --repo NAME]`: answers to "how does X work" that start from the wiki, beside the same
 * questions without it. For each repository: a copy at the pinned commit, its whole wiki written on the default
 * local model (`codewiki wiki`, timed), the questions asked with the wiki, then again with the wiki moved away.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { repo: { type: 'string' } } });
  const repos = loadEvalRepos().filter((repo) => HOW_QUESTIONS[repo.repo] && repo.dir && (!values.repo || repo.repo.includes(values.repo)));
  const server = await startLocalModel({ model: process.env.CODEWIKI_EVAL_MODEL ?? pinnedModels().defaultModel, args: ['--n-predict', '512'] });
  const cacheDir = mkdtempSync(join(tmpdir(), 'codewiki-eval-cache-'));
  const rows: string[] = [];
  try {
    for (const repo of repos) {
      const copy = mkdtempSync(join(tmpdir(), 'codewiki-eval-wiki-'));
      try {
        execFileSync('sh', ['-c', `git -C '${repo.dir}' archive HEAD | tar -x -C '${copy}'`]);
        for (const args of [
          ['init', '-q'],
          ['add', '-A'],
          ['-c', 'user.email=eval@example.com', '-c', 'user.name=eval', 'commit', '-qm', 'snapshot'],
        ])
          execFileSync('git', args, { cwd: copy });
        const started = performance.now();
        const env = { ...process.env, CODEWIKI_CACHE_DIR: cacheDir };
        const wiki = spawnSync(process.execPath, [CLI, 'wiki', '--workspace', copy, '--base-url', server.baseUrl, '--model', server.model], {
          encoding: 'utf8',
          env,
        });
        const wikiSeconds = (performance.now() - started) / 1000;
        process.stderr.write(`wiki of ${repo.repo}: exit ${wiki.status} in ${fmt(wikiSeconds, 0)} s\n${wiki.stderr.split('\n').slice(-6).join('\n')}\n`);
        const options = { baseUrl: server.baseUrl, model: server.model, withIndex: true, timeoutMs: QUESTION_TIMEOUT_MS, cacheDir };
        const withWiki = await askAll(repo.repo, copy, HOW_QUESTIONS[repo.repo]!, options, 'wiki');
        renameSync(join(copy, '.codewiki', 'wiki'), join(copy, '.codewiki', 'wiki-away'));
        const without = await askAll(repo.repo, copy, HOW_QUESTIONS[repo.repo]!, options, 'no wiki');
        const modules = /structure: (\d+) modules?/.exec(wiki.stderr)?.[1] ?? '?';
        rows.push(`| ${repo.repo} | ${modules} modules, ${fmt(wikiSeconds / 60)} min | ${summary(withWiki)} | ${summary(without)} |`);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  } finally {
    await server.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  }
  console.log(`\n## "How does X work" on ${server.model}, with the wiki and without\n`);
  console.log('Right: the first workspace file the answer names is one that does it (in brackets: any file it names is).\n');
  console.log('| repository | wiki written | with the wiki: right, median s | without: right, median s |\n|---|---|---|---|');
  for (const row of rows) console.log(row);
}

async function askAll(
  repo: string,
  workspace: string,
  questions: EvalQuestion[],
  options: Parameters<typeof askQuestion>[2],
  label: string,
): Promise<AskOutcome[]> {
  const outcomes: AskOutcome[] = [];
  for (const question of questions) {
    const outcome = await askQuestion(workspace, question, options);
    outcomes.push(outcome);
    const verdict = outcome.timedOut ? 'TIMEOUT' : outcome.correct ? 'right' : outcome.mentions ? 'WRONG (names it later)' : 'WRONG';
    process.stderr.write(
      `${label} | ${repo} | ${verdict} | ${fmt(outcome.seconds, 0)} s | ${question.question}\n    → ${outcome.answer.replace(/\s+/g, ' ').slice(0, 300)}\n`,
    );
  }
  return outcomes;
}

function summary(outcomes: AskOutcome[]): string {
  const right = outcomes.filter((o) => o.correct).length;
  const mentions = outcomes.filter((o) => o.mentions).length;
  return `${right}/${outcomes.length} (${mentions}), ${fmt(median(outcomes.map((o) => o.seconds)), 0)} s`;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
