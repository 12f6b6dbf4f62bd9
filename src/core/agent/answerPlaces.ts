import { readFile, stat } from 'node:fs/promises';
import { onlyPathEndingWith, pathEndsWith } from '../workspace/pathEnds';
import type { Workspace } from '../workspace/workspace';
import { hasKnownExtension } from '../tools/file/languages';
import { PATH_LIKE, withoutAbbreviations } from './fileAnswerCheck';

/** A place an answer cites: `src/a.ts:12`, or a path followed closely by its line ("`gin.go` file at line 998", "a.rs, line 4"). */
export interface CitedPlace {
  path: string;
  line: number;
}

const CITATION = new RegExp(`(${PATH_LIKE.source})(?:\`?:(\\d+)\\b|[\`'"]?(?:\\s+file)?(?:,|\\s+(?:at|on))?\\s+\\(?[Ll]ines?\\s+(\\d+)\\b)`, 'g');

/** Every path:line an answer cites, in order (`./src/a.ts` as `src/a.ts`); "e.g." and "i.e." are no paths. */
export function citedPlaces(answer: string): CitedPlace[] {
  return [...withoutAbbreviations(answer).matchAll(CITATION)].map((match) => ({
    path: match[1]!.replace(/^(?:\.?\/)+/, ''),
    line: Number(match[2] ?? match[3]),
  }));
}

/**
 * Whether an answer names a place the user can find: a file name with the extension of a language or format
 * (`utils.py`, `vite.config.ts`), a file the model was shown or a suffix of its path, or a file or folder of the
 * workspace. A word only shaped like a path is not: the 1.5B default answered "the `LinkedTreeMap` class, in the
 * `com.google.gson.internal` package", and a package, a module (`requests.utils`) or a class is no place to open.
 */
export async function namesWorkspacePlace(answer: string, shown: readonly string[], workspace: Workspace, signal?: AbortSignal): Promise<boolean> {
  const words = [...withoutAbbreviations(answer).replace(/\\/g, '/').matchAll(new RegExp(PATH_LIKE.source, 'g'))]
    .map((match) => match[0].replace(/^(?:\.?\/)+|[.]+$/g, ''))
    .filter((word) => word !== '' && word !== '.');
  if (words.some((word) => hasKnownExtension(word) || shown.some((path) => pathEndsWith(path, word)))) return true;
  // What is left is looked up on disk: folders first (`crates/ignore`), a few only, however long the answer.
  const looked = [...new Set(words)].sort((a, b) => Number(b.includes('/')) - Number(a.includes('/'))).slice(0, MAX_LOOKUPS);
  for (const word of looked) {
    if (signal?.aborted) return true; // a stopped run asks nothing more
    if (await exists(workspace, word)) return true;
  }
  return false;
}

/** How many words of one answer are looked up on disk. */
const MAX_LOOKUPS = 16;

async function exists(workspace: Workspace, path: string): Promise<boolean> {
  try {
    return (await workspace.resolve(path)).relative !== '.'; // resolve finds it, or throws
  } catch {
    return false;
  }
}

/** A cited line the file does not have. */
export interface LinePastEnd extends CitedPlace {
  /** How many lines the file has. */
  lines: number;
  /** The one other file the matches show a line of that number in: where the line most likely came from. */
  shownIn?: string;
}

/** Larger files are not read to check a citation (the index reads none over 1 MiB either). */
const MAX_CHECKED_BYTES = 1024 * 1024;

/**
 * The first line an answer cites past the end of its file, among the files the model was shown (the index's matches:
 * files it may read, never secret ones). The 1.5B default, shown `gin.go` first and `context.go:998` (in `ClientIP`)
 * second, answered "`ClientIP` … in the `gin.go` file at line 998", in a file of 832 lines: a link that leads nowhere,
 * and a sign it joined one entry's path to another's line, which the list then names (`shownIn`). Files that cannot
 * be read now are passed over.
 */
export async function linePastEnd(
  answer: string,
  shown: { files: readonly string[]; list: string },
  workspace: Workspace,
  signal?: AbortSignal,
): Promise<LinePastEnd | undefined> {
  const counted = new Map<string, number | undefined>();
  for (const cited of citedPlaces(answer)) {
    const path = shownFile(cited.path, shown.files);
    if (path === undefined) continue;
    if (!counted.has(path)) counted.set(path, await lineCount(workspace, path, signal));
    const lines = counted.get(path);
    if (lines === undefined || cited.line <= lines) continue;
    const elsewhere = new Set(
      listedPlaces(shown.list).flatMap((listed) => {
        const file = shownFile(listed.path, shown.files);
        return listed.line === cited.line && file !== undefined && file !== path ? [file] : [];
      }),
    );
    return { path, line: cited.line, lines, ...(elsewhere.size === 1 ? { shownIn: [...elsewhere][0] } : {}) };
  }
  return undefined;
}

/** A cited line that the matches show under another file's path, and not under the file cited. */
export interface LineOfAnotherEntry extends CitedPlace {
  /** The one other file the matches show a line of that number in. */
  shownIn: string;
}

/**
 * The answer's first place, when its line is not one the matches show for its file but is one they show for exactly
 * one other file: the model joined one entry's path to another's line. Shown `crates/pcre2/src/matcher.rs:115:
 * pub fn case_smart(…)` first and `crates/regex/src/matcher.rs:120: pub fn case_smart(…)` second, the 1.5B default
 * answered `crates/regex/src/matcher.rs:115`, a line inside the file. Only for answers from the matches alone: a
 * model that read a file may cite any of its lines.
 */
export function lineOfAnotherEntry(answer: string, shown: { files: readonly string[]; list: string }): LineOfAnotherEntry | undefined {
  const first = citedPlaces(answer).find((cited) => shownFile(cited.path, shown.files) !== undefined);
  if (!first) return undefined;
  const path = shownFile(first.path, shown.files)!;
  const listed = listedPlaces(shown.list).map((place) => ({ path: shownFile(place.path, shown.files), line: place.line }));
  if (listed.some((place) => place.path === path && place.line === first.line)) return undefined;
  const elsewhere = new Set(listed.flatMap((place) => (place.line === first.line && place.path !== undefined && place.path !== path ? [place.path] : [])));
  return elsewhere.size === 1 ? { path, line: first.line, shownIn: [...elsewhere][0]! } : undefined;
}

/** The shown file a cited path names: the file itself, or the one shown file whose path ends with it (`tree.go`). */
function shownFile(cited: string, files: readonly string[]): string | undefined {
  return files.includes(cited) ? cited : onlyPathEndingWith(files, cited);
}

/** The `path:line` entries of the index's list (`   context.go:998 (in ClientIP): …`), paths as the list writes them. */
function listedPlaces(list: string): CitedPlace[] {
  return [...list.matchAll(/^\s+(\S+?):(\d+)\b/gm)].map((match) => ({ path: match[1]!, line: Number(match[2]) }));
}

async function lineCount(workspace: Workspace, path: string, signal?: AbortSignal): Promise<number | undefined> {
  try {
    const { absolute } = await workspace.resolve(path);
    // A regular file of a size the index reads: never a FIFO, whose opening would block, nor a file grown huge since.
    const stats = await stat(absolute);
    if (!stats.isFile() || stats.size > MAX_CHECKED_BYTES) return undefined;
    const text = await readFile(absolute, { encoding: 'utf8', signal });
    let lines = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
    return text.endsWith('\n') || text === '' ? lines : lines + 1;
  } catch {
    return undefined;
  }
}
