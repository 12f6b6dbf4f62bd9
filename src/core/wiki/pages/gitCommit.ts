import { execFile } from 'node:child_process';

/** The workspace's current commit (short), or `unknown` outside git: what a page's prose says it was written for. */
export function gitCommit(root: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, timeout: 5_000 }, (error, stdout) => {
      const commit = stdout?.trim();
      resolve(!error && commit && /^[0-9a-f]+$/.test(commit) ? commit : 'unknown');
    });
  });
}
