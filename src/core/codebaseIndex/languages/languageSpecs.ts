import { CSS_TAGS, INI_TAGS } from './markupTags';
import { BASH_TAGS, PHP_TAGS, POWERSHELL_TAGS, PYTHON_TAGS, RUBY_TAGS } from './scriptingTags';
import { CPP_TAGS, CSHARP_TAGS, GO_TAGS, JAVA_TAGS, RUST_TAGS } from './systemsTags';
import type { TagQuery } from './tagQuery';
import { JAVASCRIPT_TAGS, TSX_TAGS, TYPESCRIPT_TAGS } from './typescriptTags';

/**
 * Which grammar parses a file, by extension. Every grammar @vscode/tree-sitter-wasm ships that holds
 * definitions is here; C has no grammar of its own there, and C++'s parses C. Other files fall back to
 * the regex outline (outlineRules.ts) or to their opening lines.
 */
const BY_EXTENSION: Record<string, TagQuery> = {
  ts: TYPESCRIPT_TAGS,
  mts: TYPESCRIPT_TAGS,
  cts: TYPESCRIPT_TAGS,
  tsx: TSX_TAGS,
  js: JAVASCRIPT_TAGS,
  jsx: JAVASCRIPT_TAGS,
  mjs: JAVASCRIPT_TAGS,
  cjs: JAVASCRIPT_TAGS,
  py: PYTHON_TAGS,
  pyi: PYTHON_TAGS,
  go: GO_TAGS,
  rs: RUST_TAGS,
  java: JAVA_TAGS,
  cs: CSHARP_TAGS,
  c: CPP_TAGS,
  h: CPP_TAGS,
  cc: CPP_TAGS,
  cpp: CPP_TAGS,
  cxx: CPP_TAGS,
  hpp: CPP_TAGS,
  hh: CPP_TAGS,
  hxx: CPP_TAGS,
  rb: RUBY_TAGS,
  rake: RUBY_TAGS,
  php: PHP_TAGS,
  sh: BASH_TAGS,
  bash: BASH_TAGS,
  zsh: BASH_TAGS,
  ps1: POWERSHELL_TAGS,
  psm1: POWERSHELL_TAGS,
  css: CSS_TAGS,
  ini: INI_TAGS,
  cfg: INI_TAGS,
};

export function tagQueryForPath(path: string): TagQuery | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : BY_EXTENSION[name.slice(dot + 1)];
}

/** Each grammar once, for tests and for loading ahead of a build. */
export const ALL_TAG_QUERIES: readonly TagQuery[] = [...new Set(Object.values(BY_EXTENSION))];
