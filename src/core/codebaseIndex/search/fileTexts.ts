import { readFileSync } from 'node:fs';

/** The part of a file that ranking and best lines read: the start of a huge file says what it is about. */
const MAX_READ_BYTES = 256 * 1024;

/** Reads an indexed file's text by its workspace path; undefined when it cannot be read. */
export type FileTextReader = (path: string) => string | undefined;

/**
 * A reader for one search: each file is read once, though the ranking (term proximity) and the best lines both
 * look at it. A file changed or gone since it was indexed reads as undefined: the ranking still stands.
 */
export function fileTextReader(absoluteOf: (path: string) => string): FileTextReader {
  const texts = new Map<string, string | undefined>();
  return (path) => {
    if (!texts.has(path)) {
      let text: string | undefined;
      try {
        text = readFileSync(absoluteOf(path)).subarray(0, MAX_READ_BYTES).toString('utf8');
      } catch {
        text = undefined;
      }
      texts.set(path, text);
    }
    return texts.get(path);
  };
}
