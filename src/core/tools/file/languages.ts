/**
 * Language ids (as used for Markdown code fences) by file extension or well-known file name.
 * The outline extractor keys its rules on these ids.
 */
const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  cs: 'csharp',
  scala: 'scala',
  swift: 'swift',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  rb: 'ruby',
  php: 'php',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ps1: 'powershell',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  rst: 'restructuredtext',
  txt: 'text',
  json: 'json',
  jsonc: 'jsonc',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  ini: 'ini',
  xml: 'xml',
  html: 'html',
  htm: 'html',
  css: 'css',
  scss: 'scss',
  less: 'less',
  svg: 'xml',
  sql: 'sql',
  graphql: 'graphql',
  proto: 'protobuf',
  lua: 'lua',
  r: 'r',
  dart: 'dart',
  vue: 'vue',
  svelte: 'svelte',
  ex: 'elixir',
  exs: 'elixir',
  erl: 'erlang',
  hs: 'haskell',
};

const BY_FILE_NAME: Record<string, string> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  gemfile: 'ruby',
  rakefile: 'ruby',
  '.gitignore': 'ignore',
  '.bashrc': 'shell',
  '.zshrc': 'shell',
  'cmakelists.txt': 'cmake',
};

/** Whether a path ends in a file extension of a language or format this table knows (`a.ts`, `vite.config.ts`, not `os.path`). */
export function hasKnownExtension(path: string): boolean {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') && BY_EXTENSION[path.slice(dot + 1).toLowerCase()] !== undefined;
}

export function languageFromPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = BY_FILE_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return 'text';
  return BY_EXTENSION[name.slice(dot + 1)] ?? 'text';
}
