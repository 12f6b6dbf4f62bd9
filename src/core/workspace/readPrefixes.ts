import { throwIfAborted } from '../util/abort';
import type { AdaptiveFs } from './adaptiveFs';
import { forEachBounded } from '../util/boundedConcurrency';
import type { FilePrefix } from './readTextFile';

export interface ReadPrefixesOptions {
  maxBytes: number;
  /** Files in flight once I/O has switched to asynchronous. */
  concurrency: number;
  signal?: AbortSignal;
  /** Checked before each file; stops the pass once the caller has enough. */
  shouldStop?: () => boolean;
}

/**
 * Reads the first `maxBytes` of each file, turns it into a result with `transform` (which must
 * finish with the bytes before returning: they live in a reused buffer; `undefined` means the
 * file vanished or became unreadable after the walk), and hands results to `accept` strictly in
 * path order, so output and where a cap falls never depend on timing.
 *
 * While `fs` allows blocking I/O this is a plain loop (no promise per file, which is measurable
 * at 20,000 files); after a slow call the rest are read asynchronously with bounded concurrency.
 */
export async function mapFilePrefixes<R>(
  fs: AdaptiveFs,
  paths: readonly string[],
  transform: (prefix: FilePrefix | undefined, index: number) => R,
  accept: (result: R, index: number) => void,
  options: ReadPrefixesOptions,
): Promise<void> {
  const { maxBytes, signal, shouldStop } = options;
  let next = 0;
  if (fs.isBlocking) {
    const scratch = Buffer.allocUnsafe(maxBytes + 1);
    while (next < paths.length && fs.isBlocking) {
      throwIfAborted(signal);
      if (shouldStop?.()) return;
      const pause = fs.pause();
      if (pause) {
        await pause;
        continue; // re-check abort and stop now that the event loop has run
      }
      const index = next++;
      accept(
        transform(
          readQuietly(() => fs.readFilePrefixNow(paths[index] as string, maxBytes, scratch)),
          index,
        ),
        index,
      );
    }
  }
  await mapAsynchronously(fs, paths, next, transform, accept, options);
}

async function mapAsynchronously<R>(
  fs: AdaptiveFs,
  paths: readonly string[],
  from: number,
  transform: (prefix: FilePrefix | undefined, index: number) => R,
  accept: (result: R, index: number) => void,
  options: ReadPrefixesOptions,
): Promise<void> {
  const { maxBytes, signal, shouldStop } = options;
  // Finished results wait here until every earlier file has been accepted.
  const finished = new Map<number, R>();
  let nextToAccept = from;
  // Reusing buffers pays for small prefixes; a lane's worth of 1 MB buffers would not.
  const reuseBuffers = maxBytes <= 64 * 1024;
  const spare: Buffer[] = [];
  await forEachBounded(
    paths.slice(from),
    options.concurrency,
    async (path, i) => {
      const scratch = reuseBuffers ? (spare.pop() ?? Buffer.allocUnsafe(maxBytes + 1)) : undefined;
      let prefix: FilePrefix | undefined;
      try {
        prefix = await fs.readFilePrefix(path, maxBytes, scratch);
      } catch {
        prefix = undefined;
      }
      finished.set(from + i, transform(prefix, from + i));
      if (scratch) spare.push(scratch);
      while (finished.has(nextToAccept)) {
        const result = finished.get(nextToAccept) as R;
        finished.delete(nextToAccept);
        accept(result, nextToAccept++);
      }
    },
    { signal, shouldStop },
  );
}

function readQuietly(read: () => FilePrefix): FilePrefix | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
