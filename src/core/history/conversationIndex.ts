import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from '../util/atomicFile';
import type { ConversationSummary } from './conversationTypes';

/**
 * `index.json` is only a cache of summaries so the history list shows without reading every
 * conversation. Each entry records the size and mtime its conversation file had when the summary was
 * taken; on open, a file whose stat differs (or that has no entry) is re-read and its entry rebuilt, and
 * entries without a file are dropped. So a missing, corrupt or stale index (say, after a crash between an
 * append and the next index write) heals itself, and the index can be written lazily (see IndexWriter).
 */
const INDEX_VERSION = 1;

export interface IndexEntry {
  summary: ConversationSummary;
  /** -1 when the file must be re-read on next open (it had unsaved changes or owed a repair). */
  size: number;
  mtimeMs: number;
}

const summarySchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number(),
  preview: z.string(),
});
const indexSchema = z.object({
  version: z.literal(INDEX_VERSION),
  conversations: z.array(z.object({ summary: summarySchema, size: z.number(), mtimeMs: z.number() })),
});

/** Returns undefined when the index is missing or unusable; the caller then rebuilds from the files. */
export async function readIndex(path: string): Promise<Map<string, IndexEntry> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = indexSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    return new Map(parsed.data.conversations.map((entry) => [entry.summary.id, entry]));
  } catch {
    return undefined;
  }
}

export async function writeIndex(path: string, entries: IndexEntry[]): Promise<void> {
  await writeFileAtomic(path, JSON.stringify({ version: INDEX_VERSION, conversations: entries }));
}

/**
 * Coalesces index writes: appends only mark it dirty and one write happens after `delayMs` of quiet, so
 * an append costs the same with 20 or 20,000 conversations stored. `flush()` writes now. A failed
 * background write keeps the index dirty; the next `flush()` retries it and reports the error.
 */
export class IndexWriter {
  private dirty = false;
  private disposed = false;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly delayMs: number,
    private readonly write: () => Promise<void>,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().catch(() => undefined); // kept dirty; surfaced by the next explicit flush()
    }, this.delayMs);
    this.timer.unref(); // a pending index write must not keep the CLI or a test process alive
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.chain.then(async () => {
      if (!this.dirty) return;
      this.dirty = false;
      try {
        await this.write();
      } catch (error) {
        this.dirty = true;
        throw error;
      }
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
