// Standard @vscode/test-cli configuration, for contributors who are online: it runs the extension-host suite
// (test/vscode/exthost/*.exthost.ts, bundled into .cache/exthost-tests/) in a desktop VS Code.
//
// NOT usable offline: @vscode/test-cli and @vscode/test-electron download a VS Code build from
// update.code.visualstudio.com, and no npm or Debian package ships one. CI and offline machines run the same suite
// inside code-server instead (test/vscode/extensionHostSuite.ts, exercised by `npm test`). See test/vscode/README.md.
//
// Online: `npm run test:desktop` (scripts/vscode/test-desktop.ts) builds the suite and runs it through
// @vscode/test-electron; `npx @vscode/test-cli` with this file works too once the suite is built.
//
// A plain object rather than defineConfig() from '@vscode/test-cli', so this file loads without that package installed.
export default {
  label: 'extension host',
  files: '.cache/exthost-tests/*.exthost.js',
  version: 'stable',
  extensionDevelopmentPath: '.',
  workspaceFolder: './example-workspace',
  env: { CODEWIKI_EXTHOST_PROBE: 'reached the extension host' },
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  mocha: { ui: 'bdd', timeout: 30_000 },
};
