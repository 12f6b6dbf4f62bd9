import { readFile, stat } from 'node:fs/promises';
import type { Workspace } from '../workspace/workspace';
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
    path: match[1]!.replace(/^(?:\.\/)+/, ''),
    line: Number(match[2] ?? match[3]),
  }));
}

/**
 * Whether an answer names a place the user can open: a path-like word that is a file or folder of the workspace, or
 * the name of a file the model was shown (`sessions.py` for `src/requests/sessions.py`). A word only shaped like one
 * is not: the 1.5B default answered "the `LinkedTreeMap` class, in the `com.google.gson.internal` package", and a
 * package, a module (`requests.utils`) or a class is no link.
 */
export async function namesWorkspacePlace(answer: string, shown: readonly string[], workspace: Workspace): Promise<boolean> {
  const words = [...withoutAbbreviations(answer).matchAll(new RegExp(PATH_LIKE.source, 'g'))].map((match) => match[0].replace(/^(?:\.\/)+|[.]+$/g, ''));
  if (words.some((word) => shown.some((path) => path === word || path.endsWith(`/${word}`)))) return true;
  for (const word of new Set(words)) if (await exists(workspace, word)) return true;
  return false;
}

async function exists(workspace: Workspace, path: string): Promise<boolean> {
  try {
    await stat((await workspace.resolve(path)).absolute);
    return true;
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
  const known = new Set(shown.files);
  const counted = new Map<string, number | undefined>();
  for (const place of citedPlaces(answer)) {
    if (!known.has(place.path)) continue;
    if (!counted.has(place.path)) counted.set(place.path, await lineCount(workspace, place.path, signal));
    const lines = counted.get(place.path);
    if (lines === undefined || place.line <= lines) continue;
    const elsewhere = new Set(listedPlaces(shown.list).flatMap(({ path, line }) => (line === place.line && path !== place.path ? [path] : [])));
    return { ...place, lines, ...(elsewhere.size === 1 ? { shownIn: [...elsewhere][0] } : {}) };
  }
  return undefined;
}

/** The `path:line` entries of the index's list (`   context.go:998 (in ClientIP): …`). */
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
