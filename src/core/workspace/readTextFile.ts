import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync } from 'node:fs';
import { promisify } from 'node:util';

// The callback API, promisified once: FileHandle objects cost noticeably more per file when a
// summary pass opens 20,000 of them.
export const readAsync = promisify(read);
export const closeAsync = promisify(close);
export const fstatAsync = promisify(fstat);
const openAsync = promisify(open);

/** Refuse to follow a symlink swapped in after `Workspace.resolve` checked the real path (not on Windows). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

export function openForReading(absolute: string): Promise<number> {
  return openAsync(absolute, OPEN_FLAGS);
}

/** How much of a file is sniffed for NUL bytes, as git and ripgrep do. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

export interface FilePrefix {
  /** The bytes read: the whole file unless `truncated`. */
  bytes: Buffer;
  /** Size of the file on disk. */
  size: number;
  truncated: boolean;
  binary: boolean;
}

/**
 * Reads at most `maxBytes` from the start of a file. Reading one byte more than allowed tells us
 * whether the file is longer without an extra `fstat` for the common small file. `scratch`, when
 * given, is reused instead of allocating (it must hold `maxBytes + 1`); the returned bytes then
 * alias it and must be consumed before the next read.
 */
export async function readFilePrefix(absolute: string, maxBytes: number, scratch?: Buffer): Promise<FilePrefix> {
  const fd = await openForReading(absolute);
  try {
    let buffer = scratch;
    if (!buffer || buffer.length < maxBytes + 1) {
      const { size } = await fstatAsync(fd);
      buffer = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
    }
    const wanted = Math.min(buffer.length, maxBytes + 1);
    let filled = 0;
    while (filled < wanted) {
      const asked = wanted - filled;
      const { bytesRead } = await readAsync(fd, buffer, filled, asked, filled);
      filled += bytesRead;
      if (bytesRead < asked) break; // short read: end of file (see readFilePrefixSync)
    }
    const truncated = filled > maxBytes;
    const size = truncated ? (await fstatAsync(fd)).size : filled;
    const bytes = buffer.subarray(0, Math.min(filled, maxBytes));
    return { bytes, size, truncated, binary: looksBinary(bytes) };
  } finally {
    await closeAsync(fd);
  }
}

/** The blocking twin of `readFilePrefix`, for `AdaptiveFs` (see there for why). */
export function readFilePrefixSync(absolute: string, maxBytes: number, scratch?: Buffer): FilePrefix {
  const fd = openSync(absolute, OPEN_FLAGS);
  try {
    let buffer = scratch;
    if (!buffer || buffer.length < maxBytes + 1) buffer = Buffer.allocUnsafe(Math.min(fstatSync(fd).size, maxBytes) + 1);
    const wanted = Math.min(buffer.length, maxBytes + 1);
    let filled = 0;
    // A regular file returns fewer bytes than asked only at its end, so a short read ends the
    // loop without the extra zero-byte read that would confirm it (20% of the cost for small files).
    while (filled < wanted) {
      const asked = wanted - filled;
      const bytesRead = readSync(fd, buffer, filled, asked, filled);
      filled += bytesRead;
      if (bytesRead < asked) break;
    }
    const truncated = filled > maxBytes;
    const size = truncated ? fstatSync(fd).size : filled;
    const bytes = buffer.subarray(0, Math.min(filled, maxBytes));
    return { bytes, size, truncated, binary: looksBinary(bytes) };
  } finally {
    closeSync(fd);
  }
}

export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Decodes as UTF-8, dropping a character cut in half at the end of a truncated prefix (it would
 * otherwise show as U+FFFD) and a leading byte-order mark.
 */
export function decodeText(bytes: Buffer, truncated: boolean): string {
  let end = bytes.length;
  if (truncated) {
    // Back up over continuation bytes (10xxxxxx) to the start of the last character, and drop it.
    let start = end - 1;
    while (start > 0 && end - start < 4 && ((bytes[start] as number) & 0xc0) === 0x80) start--;
    const lead = bytes[start] as number;
    const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (end - start < needed) end = start;
  }
  const text = bytes.toString('utf8', 0, end);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The line a truncated file ends with, so the model (and the user) can see it was cut. */
export function truncationMarker(fileSize: number, shownBytes: number): string {
  return `… [truncated by CodeWiki: file is ${formatBytes(fileSize)}, showing the first ${formatBytes(shownBytes)}]`;
}

/** Binary units with the familiar labels (1 MB = 1,048,576 bytes), one decimal, no trailing ".0". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1).replace(/\.0$/, '')} ${units[unit]}`;
}

/** Counts lines the way editors do: a final line without a newline still counts. */
export function countLines(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  let at = bytes.indexOf(10);
  while (at !== -1) {
    count++;
    at = bytes.indexOf(10, at + 1);
  }
  return bytes[bytes.length - 1] === 10 ? count : count + 1;
}
