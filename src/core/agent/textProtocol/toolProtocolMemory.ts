import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../util/atomicFile';
import type { ToolProtocol } from './toolProtocol';

export interface RememberedProtocol {
  protocol: ToolProtocol;
  /** Why `auto` switched, in words for the user. */
  reason: string;
  /** ISO time of the switch. */
  at: string;
}

/** The most model/endpoint pairs kept; the oldest are dropped. */
const MAX_ENTRIES = 200;

/**
 * What `auto` learned about a model behind an endpoint: once it switched to the text protocol, later
 * runs and conversations start there instead of failing on `tools` again. Kept in memory for the
 * session and, when a file is given, in a small JSON file (the extension puts it in its global
 * storage, beside the conversations). The file is a cache: a missing or corrupt one starts empty.
 */
export class ToolProtocolMemory {
  private entries: Map<string, RememberedProtocol> | undefined;
  private loading: Promise<Map<string, RememberedProtocol>> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly file?: string) {}

  static key(modelName: string, endpoint: string | undefined): string {
    return `${endpoint ?? ''}#${modelName}`;
  }

  async get(key: string): Promise<RememberedProtocol | undefined> {
    return (await this.load()).get(key);
  }

  async remember(key: string, entry: RememberedProtocol): Promise<void> {
    const entries = await this.load();
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    if (!this.file) return;
    const file = this.file;
    const data = `${JSON.stringify({ version: 1, entries: Object.fromEntries(entries) }, null, 2)}\n`;
    // Writes are chained so two quick switches cannot land out of order.
    this.writing = this.writing.then(() => persist(file, data)).catch(() => {});
    await this.writing;
  }

  /** Forgets every model (e.g. after the user changed `toolProtocol` and wants `auto` to probe again). */
  async clear(): Promise<void> {
    (await this.load()).clear();
    if (this.file) await persist(this.file, `${JSON.stringify({ version: 1, entries: {} })}\n`).catch(() => {});
  }

  private load(): Promise<Map<string, RememberedProtocol>> {
    if (this.entries) return Promise.resolve(this.entries);
    this.loading ??= this.read().then((entries) => (this.entries = entries));
    return this.loading;
  }

  private async read(): Promise<Map<string, RememberedProtocol>> {
    const entries = new Map<string, RememberedProtocol>();
    if (!this.file) return entries;
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as { entries?: Record<string, RememberedProtocol> };
      for (const [key, value] of Object.entries(parsed.entries ?? {})) {
        if (value && (value.protocol === 'text' || value.protocol === 'native') && typeof value.reason === 'string')
          entries.set(key, { protocol: value.protocol, reason: value.reason, at: String(value.at ?? '') });
      }
    } catch {
      // missing or unreadable: a cache, so start empty
    }
    return entries;
  }
}

async function persist(file: string, data: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFileAtomic(file, data);
}
