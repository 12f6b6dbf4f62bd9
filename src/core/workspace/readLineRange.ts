import { throwIfAborted } from '../util/abort';
import { BINARY_SNIFF_BYTES, closeAsync, decodeText, fstatAsync, looksBinary, openForReading, readAsync } from './readTextFile';

const CHUNK_BYTES = 64 * 1024;

export interface LineRange {
  /** The lines' text, newlines included; cut to `maxBytes` when `truncated`. */
  text: string;
  /** 1-based numbers of the first and last line returned (last < first when nothing was). */
  firstLine: number;
  lastLine: number;
  /** Known when the scan reached the end of the file. */
  totalLines?: number;
  size: number;
  truncated: boolean;
  binary: boolean;
}

/**
 * Reads lines `start..end` (1-based, inclusive) by scanning fixed-size chunks, so paging through
 * a file far larger than the per-file cap works and a huge single-line file never has to fit in
 * memory (readline would buffer the whole line). At most `maxBytes` of text are kept.
 */
export async function readLineRange(absolute: string, start: number, end: number, maxBytes: number, signal?: AbortSignal): Promise<LineRange> {
  const fd = await openForReading(absolute);
  try {
    const size = (await fstatAsync(fd)).size;
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let line = 1;
    let lastLine = start - 1;
    let position = 0;
    let truncated = false;
    let endsWithNewline = false;
    scan: for (;;) {
      throwIfAborted(signal);
      const { bytesRead } = await readAsync(fd, chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) {
        const totalLines = size === 0 ? 0 : endsWithNewline ? line - 1 : line;
        return result(kept, start, Math.min(lastLine, totalLines), size, truncated, totalLines);
      }
      const bytes = chunk.subarray(0, bytesRead);
      if (position === 0 && looksBinary(bytes.subarray(0, BINARY_SNIFF_BYTES))) {
        return { text: '', firstLine: start, lastLine: start - 1, size, truncated: false, binary: true };
      }
      position += bytesRead;
      endsWithNewline = bytes[bytesRead - 1] === 10;
      let offset = 0;
      while (offset < bytesRead) {
        const newline = bytes.indexOf(10, offset);
        const segmentEnd = newline === -1 ? bytesRead : newline + 1;
        if (line >= start) {
          const room = maxBytes - keptBytes;
          const segment = bytes.subarray(offset, Math.min(segmentEnd, offset + room));
          kept.push(Buffer.from(segment));
          keptBytes += segment.length;
          lastLine = line;
          if (segment.length < segmentEnd - offset) {
            truncated = true;
            break scan;
          }
        }
        if (newline === -1) break;
        line++;
        offset = newline + 1;
        if (line > end) break scan;
      }
    }
    return result(kept, start, lastLine, size, truncated);
  } finally {
    await closeAsync(fd);
  }
}

function result(kept: Buffer[], start: number, lastLine: number, size: number, truncated: boolean, totalLines?: number): LineRange {
  const text = decodeText(Buffer.concat(kept), truncated);
  return { text, firstLine: start, lastLine, totalLines, size, truncated, binary: false };
}
