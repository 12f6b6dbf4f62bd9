/**
 * What counts as a workspace file reference in an answer: `src/a.ts:12` in running text, or a whole
 * inline code span like `src/a.ts` or `package.json`. Only relative paths inside the folder (the
 * host still refuses anything outside the workspace). Plain string work: no DOM.
 */

export interface FileReference {
  path: string;
  line?: number;
}

/** Extensions that make a bare name in inline code a file (`package.json`), but not `console.log`. */
const FILE_EXTENSIONS = new Set(
  'ts tsx mts cts js jsx mjs cjs json jsonc md mdx yaml yml toml py rs go java kt c h cc cpp hpp cs rb php sh bash zsh ps1 html css scss less vue svelte swift sql gradle xml txt ini cfg lock'.split(
    ' ',
  ),
);

const SEGMENT = String.raw`[\w-][\w.-]*`;
const LINE = String.raw`(?::(\d+)(?::\d+)?|#L(\d+))`;
/** In running text: a path with a folder (`src/a.ts`, line optional) or a file name with a line (`a.ts:12`). */
const IN_TEXT = new RegExp(
  String.raw`(?<![\w/.@:#~-])((?:${SEGMENT}/)+${SEGMENT}\.[A-Za-z][A-Za-z0-9]{0,9}|${SEGMENT}\.[A-Za-z][A-Za-z0-9]{0,9}(?=:\d|#L\d))${LINE}?(?![\w/])`,
  'g',
);
/** The whole of an inline code span. */
const WHOLE_CODE = new RegExp(String.raw`^((?:${SEGMENT}/)*${SEGMENT})${LINE}?$`);

/** What the inline code `text` names, if it is a workspace-relative file reference. */
export function codeReference(text: string): FileReference | undefined {
  const match = WHOLE_CODE.exec(text.trim());
  if (!match) return undefined;
  const path = match[1];
  const line = toLine(match[2] ?? match[3]);
  return looksLikeFile(path, line) && safePath(path) ? { path, ...(line ? { line } : {}) } : undefined;
}

/** The references in a run of text, with where each one is. */
export function textReferences(text: string): Array<FileReference & { index: number; length: number }> {
  const found: Array<FileReference & { index: number; length: number }> = [];
  for (const match of text.matchAll(IN_TEXT)) {
    const path = match[1];
    if (!safePath(path)) continue;
    const line = toLine(match[2] ?? match[3]);
    found.push({ path, ...(line ? { line } : {}), index: match.index, length: match[0].length });
  }
  return found;
}

/**
 * `src/Dockerfile:3`, `src/a.ts` and `package.json` are files; `src/lib` (a folder?) and
 * `console.log` (a call?) are not.
 */
function looksLikeFile(path: string, line: number | undefined): boolean {
  const name = path.split('/').pop()!;
  const extension = /\.([A-Za-z][A-Za-z0-9]*)$/.exec(name)?.[1]?.toLowerCase();
  if (path.includes('/')) return extension !== undefined || line !== undefined;
  return extension !== undefined && (line !== undefined || FILE_EXTENSIONS.has(extension));
}

/** Relative, inside the folder: no `..` step, no absolute or home path. */
function safePath(path: string): boolean {
  return !path.split('/').some((part) => part === '..' || part === '.' || part === '') && !/^[~/\\]/.test(path);
}

function toLine(text: string | undefined): number | undefined {
  const line = text === undefined ? undefined : Number(text);
  return line !== undefined && Number.isInteger(line) && line >= 1 && line <= 10_000_000 ? line : undefined;
}
