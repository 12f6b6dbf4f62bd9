import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { FileFacts } from '../codeIndexTypes';

/** The part of a file that ranking and best lines read: the start of a huge file says what it is about. */
const MAX_READ_BYTES = 256 * 1024;

/** Reads an indexed file's text by its workspace path; undefined when it cannot be read. */
export interface FileTextReader {
  (path: string): string | undefined;
  /**
   * Whether the text read for a path is the version the index holds, by the size and modification time the index
   * keeps current: only then do the index's line numbers (its definitions') fit the text.
   */
  isAsIndexed(path: string, indexed: Pick<FileFacts, 'size' | 'mtimeMs'>): boolean;
}

interface FileStart {
  text: string;
  size: number;
  mtimeMs: number;
}

/**
 * A reader for one search: each file is read once, though the ranking (term proximity) and the best lines both
 * look at it, and only its first 256 KB. `locate` gives the file's real path, or undefined when it may not be read
 * (a symlink that now leads out of the workspace, a secret): such a file, or one gone since it was indexed, reads as
 * undefined, and the ranking still stands. A file edited since it was indexed reads as it is now.
 */
export function fileTextReader(locate: (path: string) => string | undefined): FileTextReader {
  const starts = new Map<string, FileStart | undefined>();
  const startOf = (path: string) => {
    if (!starts.has(path)) starts.set(path, readStart(locate(path)));
    return starts.get(path);
  };
  const read = (path: string) => startOf(path)?.text;
  return Object.assign(read, {
    isAsIndexed(path: string, indexed: Pick<FileFacts, 'size' | 'mtimeMs'>): boolean {
      const start = startOf(path);
      return start !== undefined && start.size === indexed.size && start.mtimeMs === indexed.mtimeMs;
    },
  });
}

function readStart(absolute: string | undefined): FileStart | undefined {
  if (absolute === undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(absolute, 'r');
    const { size, mtimeMs } = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(Math.min(size, MAX_READ_BYTES));
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, length).toString('utf8'), size, mtimeMs };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
