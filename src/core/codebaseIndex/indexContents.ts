import type { FileFacts } from './codeIndexTypes';
import { FileGraph } from './search/fileGraph';
import { SymbolTable } from './search/symbolTable';
import { TextIndex } from './search/textIndex';

/**
 * The searchable state of the index: every file's facts, and the three structures built from them (the
 * BM25 text index, the symbol table and the file graph). Files are added, replaced and removed one at
 * a time, which keeps the first two current at once; the graph is rebuilt on the next query that needs it.
 */
export class IndexContents {
  private readonly ids = new Map<string, number>();
  private readonly facts = new Map<number, FileFacts>();
  private readonly freeIds: number[] = [];
  private nextId = 0;
  readonly text = new TextIndex();
  readonly symbols = new SymbolTable();
  private graph: FileGraph | undefined;
  private discarded = 0;

  get fileCount(): number {
    return this.facts.size;
  }

  get symbolCount(): number {
    return this.symbols.size;
  }

  get(path: string): FileFacts | undefined {
    const id = this.ids.get(path);
    return id === undefined ? undefined : this.facts.get(id);
  }

  byId(id: number): FileFacts | undefined {
    return this.facts.get(id);
  }

  idOf(path: string): number | undefined {
    return this.ids.get(path);
  }

  paths(): IterableIterator<string> {
    return this.ids.keys();
  }

  all(): IterableIterator<FileFacts> {
    return this.facts.values();
  }

  set(facts: FileFacts): void {
    let id = this.ids.get(facts.path);
    if (id !== undefined) {
      this.symbols.remove(id, this.facts.get(id)!.symbols);
      this.discarded++;
    } else {
      id = this.freeIds.pop() ?? this.nextId++;
      this.ids.set(facts.path, id);
    }
    this.facts.set(id, facts);
    this.symbols.add(id, facts.symbols);
    this.text.set(id, facts);
    this.graph = undefined;
  }

  remove(path: string): void {
    const id = this.ids.get(path);
    if (id === undefined) return;
    this.symbols.remove(id, this.facts.get(id)!.symbols);
    this.text.remove(id);
    this.facts.delete(id);
    this.ids.delete(path);
    this.freeIds.push(id);
    this.graph = undefined;
    this.discarded++;
  }

  /** The file graph of the current contents, built on first need after a change. */
  fileGraph(): FileGraph {
    return (this.graph ??= FileGraph.build(this.facts, this.symbols));
  }

  /** After many replacements MiniSearch's discarded entries are worth reclaiming. */
  async compactIfWorthIt(): Promise<void> {
    if (this.discarded < 1_000) return;
    this.discarded = 0;
    await this.text.compact();
  }
}
