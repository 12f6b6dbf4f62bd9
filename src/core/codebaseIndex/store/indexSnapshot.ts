import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import type { FileFacts } from '../codeIndexTypes';
import type { SavedContents } from '../indexContents';

/**
 * The saved index, one JSON document: every file's facts, and the text index and file graph built from
 * them (loading those takes a fraction of rebuilding them: 0.3 s against 3.4 s for 5,000 files). The
 * symbol table is rebuilt from the facts. Bump the version when facts change shape or extraction changes
 * meaning: older files are then rebuilt, with a one-line warning (a corrupt file is also moved aside).
 */
export const SNAPSHOT_VERSION = 8;

interface Snapshot {
  version: number;
  roots: string[];
  contents: SavedContents;
}

export type LoadedSnapshot =
  | { kind: 'loaded'; contents: SavedContents }
  | { kind: 'missing' }
  /** Unreadable, of another version, or for other folders; `movedTo` keeps the bad file for a bug report. */
  | { kind: 'unusable'; reason: string; movedTo?: string };

export async function loadSnapshot(file: string, roots: readonly string[]): Promise<LoadedSnapshot> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unusable', reason: `it could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { kind: 'unusable', reason: `it is not valid JSON (${(error as Error).message})`, movedTo: await moveAside(file) };
  }
  const problem = snapshotProblem(parsed, roots);
  if (problem) return { kind: 'unusable', reason: problem, movedTo: problem.startsWith('it was saved by') ? undefined : await moveAside(file) };
  return { kind: 'loaded', contents: (parsed as Snapshot).contents };
}

export async function saveSnapshot(file: string, roots: readonly string[], contents: SavedContents): Promise<number> {
  await mkdir(dirname(file), { recursive: true });
  const snapshot: Snapshot = { version: SNAPSHOT_VERSION, roots: [...roots], contents };
  await writeFileAtomic(file, asciiJson(snapshot));
  return (await stat(file)).size;
}

/**
 * JSON with every character past ASCII escaped (`\u00e9`): the same value, in a file that reads back quickly. One
 * character past ASCII anywhere (a file head's `—`) made V8 decode and hold all of it two bytes a character: 90–110 ms
 * to read hashicorp/terraform's 20 MB, 15 ms as ASCII.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Shape checks cheap enough for 100,000 symbols: what a later search would trip over, not every field. */
function snapshotProblem(value: unknown, roots: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null) return 'it is not an index';
  const snapshot = value as Partial<Snapshot>;
  if (snapshot.version !== SNAPSHOT_VERSION)
    return `it was saved by another version of CodeWiki (format ${String(snapshot.version)}, this one reads ${SNAPSHOT_VERSION})`;
  if (!Array.isArray(snapshot.roots) || snapshot.roots.join('\n') !== roots.join('\n')) return 'it belongs to other workspace folders';
  const contents = snapshot.contents;
  if (typeof contents !== 'object' || contents === null || !Array.isArray(contents.files)) return 'it has no file list';
  if (!Array.isArray(contents.ids) || contents.ids.length !== contents.files.length || !contents.ids.every((id) => Number.isInteger(id) && id >= 0))
    return 'its file ids do not match its files';
  if (typeof contents.text !== 'object' || contents.text === null) return 'it has no text index';
  for (const [index, file] of contents.files.entries()) {
    const broken = factsProblem(file);
    if (broken) return `file entry ${index} ${broken}`;
  }
  return undefined;
}

function factsProblem(file: unknown): string | undefined {
  if (typeof file !== 'object' || file === null) return 'is not an object';
  const facts = file as Partial<FileFacts>;
  if (typeof facts.path !== 'string' || typeof facts.hash !== 'string' || typeof facts.mentions !== 'string' || typeof facts.head !== 'string')
    return 'lacks its path, hash, mentions or head';
  if (typeof facts.size !== 'number' || typeof facts.mtimeMs !== 'number') return `(${facts.path}) lacks its size or time`;
  if (!Array.isArray(facts.symbols) || !Array.isArray(facts.imports)) return `(${facts.path}) lacks its symbols or imports`;
  for (const symbol of facts.symbols) {
    if (typeof symbol?.name !== 'string' || typeof symbol.line !== 'number' || typeof symbol.signature !== 'string')
      return `(${facts.path}) has a malformed symbol`;
  }
  return undefined;
}

async function moveAside(file: string): Promise<string | undefined> {
  const target = `${file}.corrupt-${Date.now()}`;
  try {
    await rename(file, target);
    return target;
  } catch {
    return undefined;
  }
}
