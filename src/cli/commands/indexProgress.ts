import type { CodeIndex, IndexStatus } from '../../core/codebaseIndex/codeIndexTypes';
import { formatBytes } from '../../core/workspace/readTextFile';

/**
 * Index building on stderr: on a terminal one line rewritten in place ("indexing 1,234 of 4,400 files"),
 * elsewhere nothing until the summary, so logs stay readable. Returns the function that stops it.
 */
export function showIndexProgress(index: CodeIndex, out: NodeJS.WriteStream): () => void {
  if (!out.isTTY) return () => undefined;
  let shown = false;
  const stop = index.onStatus((status) => {
    if (status.state !== 'building' || !status.totalFiles) return;
    out.write(`\r\u001b[2Kindexing the workspace: ${count(status.indexedFiles)} of ${count(status.totalFiles)} files`);
    shown = true;
  });
  return () => {
    stop();
    if (shown) out.write('\r\u001b[2K');
  };
}

/** `4,400 files, 52,118 definitions (3,120 parsed) in 12.3 s; saved index 9.1 MB` */
export function describeIndex(status: IndexStatus): string {
  const parsed = status.parsedFiles !== undefined ? ` (${count(status.parsedFiles)} read and parsed, the rest unchanged)` : '';
  const time = status.durationMs !== undefined ? ` in ${(status.durationMs / 1000).toFixed(1)} s` : '';
  const size = status.storedBytes !== undefined ? `; saved index ${formatBytes(status.storedBytes)}` : '';
  return `${count(status.indexedFiles)} files, ${count(status.symbols)} definitions${parsed}${time}${size}`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}
