import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder holding `action-prompts/`. The CLI runs from `dist/cli.js` when built and from
 * `src/cli/` under tests, so look upwards rather than assume a depth.
 */
export function builtinPromptsDir(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'action-prompts');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(from, '..', 'action-prompts');
  }
}

/** scripts/local-model/serve.sh in the package (the clone, `npm link` or `npm install -g`); undefined when it is not shipped. */
export function localModelServeScript(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'scripts', 'local-model', 'serve.sh');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
