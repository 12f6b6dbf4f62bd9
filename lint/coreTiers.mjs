/**
 * The floor plan of src/core, lowest tier first; docs/architecture.md says what each tier is for. A file may import
 * its own tier and the tiers below it, never one above: eslint.config.mjs turns this table into import zones,
 * noUnlayeredFiles.mjs refuses a file of src/core that is in no tier, and noImportCycles.mjs keeps every tier's
 * folders free of cycles. Paths are relative to the repository root; a path is a folder or a single file.
 */
export const CORE_TIERS = [
  {
    name: 'ground',
    paths: ['src/core/util', 'src/core/yaml', 'src/core/llm', 'src/core/workspace', 'src/core/history', 'src/core/localModel'],
  },
  { name: 'values', paths: ['src/core/values'] },
  { name: 'capabilities', paths: ['src/core/tools', 'src/core/template', 'src/core/codebaseIndex'] },
  { name: 'programs', paths: ['src/core/actionPrompt', 'src/core/agent', 'src/core/wiki'] },
  { name: 'hosts of programs', paths: ['src/core/engine', 'src/core/subagents'] },
  { name: 'composition', paths: ['src/core/codewikiEngine.ts', 'src/core/createAgent.ts'] },
  { name: 'application', paths: ['src/core/session', 'src/core/authoring', 'src/core/toolTester'] },
];

/** "tier 3 (programs)": how messages and docs name a tier. */
export function describeTier(index) {
  return `tier ${index} (${CORE_TIERS[index].name})`;
}

/** The tier of a repository-relative path (forward slashes), or -1 when it is in none. */
export function tierOf(relativePath) {
  return CORE_TIERS.findIndex((tier) => tier.paths.some((path) => relativePath === path || relativePath.startsWith(`${path}/`)));
}
