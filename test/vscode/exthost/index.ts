import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';

/** Marks mocha's report among the workbench's own console output, which reaches the runner through the same channel. */
export const REPORT_TAG = '[codewiki-exthost] ';

/**
 * The extensionTestsPath entry point (the contract test-electron and code-server's smoke-test driver share): VS Code
 * requires this file inside the real extension host and calls run(); a rejected promise means failure (exit code 1).
 * It runs the *.exthost.js files bundled next to it (see ../extensionHostSuite.ts).
 */
export function run(): Promise<void> {
  // mocha 12 is ESM; its .Mocha export exists under both Node 20's and Node 24's require(esm).
  const { Mocha } = require('mocha') as { Mocha: typeof import('mocha') };
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  base.consoleLog = (...args) => console.log(REPORT_TAG + format(...args));
  const mocha = new Mocha({ ui: 'bdd', timeout: 30_000, color: false, reporter: 'spec' });
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.exthost.js'))
    .sort())
    mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} extension-host test(s) failed`)) : resolve()));
  });
}
