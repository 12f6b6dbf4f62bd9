import { throwIfAborted } from '../../util/abort';
import { walkWorkspace } from '../../workspace/walkWorkspace';
import type { Workspace } from '../../workspace/workspace';
import type { IndexContents } from '../indexContents';
import { buildFileFacts } from '../parsing/fileFacts';
import { isNotIndexed } from './notIndexed';
import { readIndexable } from './readIndexable';

export interface BuildProgress {
  indexed: number;
  total: number;
}

export interface BuildResult {
  total: number;
  parsed: number;
  removed: number;
}

export interface BuildOptions {
  maxFileBytes: number;
  signal?: AbortSignal;
  onProgress?(progress: BuildProgress): void;
}

/** Work this long, then let the event loop run: queries, cancellation and progress get through while a build runs. */
const SLICE_MS = 15;

/**
 * Brings the contents in line with the workspace: walks every root with the file tools' own walker
 * (ignore rules, secret policy, symlinks that stay inside), drops files that are gone, and reads,
 * hashes and parses only files whose size, modification time and then content changed. Everything
 * indexed so far is searchable while it runs; a cancelled build leaves what it did.
 */
export async function updateContents(workspace: Workspace, contents: IndexContents, options: BuildOptions): Promise<BuildResult> {
  const { signal } = options;
  const entries = [];
  for (const root of workspace.roots) {
    const start = { absolute: root, relative: '.', root };
    entries.push(...(await walkWorkspace(workspace, start, { signal })).entries.filter((entry) => !isNotIndexed(entry.relative)));
  }
  const walked = new Set<string>();
  const files = entries.map((entry) => {
    const path = workspace.displayPath(entry);
    walked.add(path);
    return { absolute: entry.absolute, path };
  });
  let removed = 0;
  for (const path of [...contents.paths()]) {
    if (!walked.has(path)) {
      contents.remove(path);
      removed++;
    }
  }
  let parsed = 0;
  let sliceStart = performance.now();
  options.onProgress?.({ indexed: 0, total: files.length });
  for (let index = 0; index < files.length; index++) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
      options.onProgress?.({ indexed: index, total: files.length });
      sliceStart = performance.now();
    }
    const { absolute, path } = files[index]!;
    if (await indexFile(contents, absolute, path, options.maxFileBytes)) parsed++;
  }
  options.onProgress?.({ indexed: files.length, total: files.length });
  return { total: files.length, parsed, removed };
}

/** Re-reads one file into the contents; true when it was parsed. A vanished file is removed. */
export async function indexFile(contents: IndexContents, absolute: string, path: string, maxFileBytes: number): Promise<boolean> {
  const known = contents.get(path);
  const outcome = readIndexable(absolute, path, known, maxFileBytes);
  switch (outcome.kind) {
    case 'unchanged':
      return false;
    case 'same-content':
      known!.mtimeMs = outcome.mtimeMs;
      contents.dirty = true;
      return false;
    case 'gone':
      contents.remove(path);
      return false;
    case 'skipped':
      contents.set(outcome.facts);
      return false;
    case 'changed':
      contents.set(await buildFileFacts({ path, hash: outcome.hash, size: outcome.size, mtimeMs: outcome.mtimeMs }, outcome.text));
      return true;
  }
}
