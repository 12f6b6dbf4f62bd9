import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** The part of a file that ranking and best lines read: the start of a huge file says what it is about. */
const MAX_READ_BYTES = 256 * 1024;

/** Reads an indexed file's text by its workspace path; undefined when it cannot be read. */
export type FileTextReader = (path: string) => string | undefined;

/**
 * A reader for one search: each file is read once, though the ranking (term proximity) and the best lines both
 * look at it, and only its first 256 KB. `locate` gives the file's real path, or undefined when it may not be read
 * (a symlink that now leads out of the workspace, a secret): such a file, or one changed or gone since it was
 * indexed, reads as undefined, and the ranking still stands.
 */
export function fileTextReader(locate: (path: string) => string | undefined): FileTextReader {
  const texts = new Map<string, string | undefined>();
  return (path) => {
    if (!texts.has(path)) texts.set(path, readStart(locate(path)));
    return texts.get(path);
  };
}

function readStart(absolute: string | undefined): string | undefined {
  if (absolute === undefined) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(absolute, 'r');
    const buffer = Buffer.allocUnsafe(Math.min(fstatSync(fd).size, MAX_READ_BYTES));
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
