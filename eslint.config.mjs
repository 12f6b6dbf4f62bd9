// ESLint: typescript-eslint's recommended rules plus the layers of the project, as import rules.
//
//   src/core     the engine, agent, tools, LLM access and storage. Runs in the extension, the CLI and tests alike,
//                so it imports neither `vscode` nor the adapters built on it (src/extension, src/cli) nor the webview.
//   src/shared   protocol types shared by the host and the webview: types only from the core, never its code,
//                or the webview bundle would pull the core (and Node) in.
//   webview-ui   the Lit app in the browser: its own files, npm packages, and src/shared. Nothing of the host.
//
// Inside src/core, the floor plan (lint/coreTiers.mjs, docs/architecture.md): seven tiers, lowest first; a file
// imports its own tier and lower ones, every file is in a tier, and no imports run in a cycle (type-only imports too).
//
// `npm run lint` runs it, and so does `npm test`. test/lint/layerRules.test.ts proves each rule fires.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { CORE_TIERS, describeTier } from './lint/coreTiers.mjs';
import codewiki from './lint/plugin.mjs';

const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'require',
    'module',
    'exports',
    '__dirname',
    '__filename',
    'console',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'Buffer',
    'URL',
    'TextEncoder',
    'TextDecoder',
  ].map((name) => [name, 'readonly']),
);

const hostAdapters = [
  { group: ['**/extension', '**/extension/**'], message: 'src/core runs without VS Code: adapters in src/extension depend on the core, never the reverse.' },
  { group: ['**/cli', '**/cli/**'], message: 'src/core runs in every host: the CLI depends on the core, never the reverse.' },
  { group: ['**/webview-ui/**'], message: 'src/core never imports the webview.' },
];

// One zone per pair of tiers: the lower one may not import the higher one, and the message names both.
const tierZones = CORE_TIERS.flatMap((lower, low) =>
  CORE_TIERS.slice(low + 1).map((higher, offset) => ({
    target: lower.paths,
    from: higher.paths,
    message: `${describeTier(low)} may not import ${describeTier(low + 1 + offset)}: a tier imports only its own tier and the ones below (docs/architecture.md).`,
  })),
);
const protocolZone = {
  target: CORE_TIERS.slice(0, -1).flatMap((tier) => tier.paths),
  from: ['src/shared'],
  message: `the host↔webview protocol (src/shared) is the business of ${describeTier(CORE_TIERS.length - 1)}; lower tiers never see it.`,
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', '.cache/**', '.vscode-test/**', 'node_modules/**', 'schemas/**', 'example-workspace/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // `_name` marks a deliberately unused parameter or binding.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // The extension-host suite and a few Node built-ins are loaded with require() on purpose (see their comments).
      '@typescript-eslint/no-require-imports': 'off',
      // Strict equality, except the `x == null` idiom for null-or-undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // Build scripts and plain-JavaScript fixtures run in Node as CommonJS or ES modules.
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    // Expected output in tests is matched with the spaces the user sees, e.g. /  write_file  /.
    files: ['test/**/*.ts'],
    rules: { 'no-regex-spaces': 'off' },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/core never imports vscode: it runs identically in the extension, the CLI and tests.' }],
          patterns: hostAdapters,
        },
      ],
    },
  },
  {
    // The floor plan of src/core. Type-only imports are held to it too: a type from a higher tier is a dependency on it.
    files: ['src/core/**/*.ts'],
    plugins: { 'import-x': importX, codewiki },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: [...tierZones, protocolZone] }],
      'codewiki/no-unlayered-files': 'error',
    },
  },
  {
    // webview-ui has its own owners and, today, type-only cycles between its actions and components; it joins once they are gone.
    files: ['**/*.ts'],
    ignores: ['webview-ui/**'],
    plugins: { codewiki },
    rules: { 'codewiki/no-import-cycles': 'error' },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'src/shared is loaded by the webview too.' }],
          patterns: [
            {
              group: ['**/core', '**/core/**'],
              allowTypeImports: true,
              message: "src/shared may use the core's types (import type), never its code: the webview bundles src/shared.",
            },
            ...hostAdapters,
          ],
        },
      ],
    },
  },
  {
    files: ['webview-ui/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'The webview talks to the host through postMessage (src/shared/protocol), never vscode.' }],
          patterns: [
            {
              group: ['**/src/core', '**/src/core/**', '**/src/extension/**', '**/src/cli/**'],
              message: 'webview-ui imports only src/shared from the host side.',
            },
            { group: ['node:*'], message: 'The webview runs in a browser.' },
          ],
        },
      ],
    },
  },
);
