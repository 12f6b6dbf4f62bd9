import type { FileFacts } from './codeIndexTypes';
import { FileGraph, type SavedGraph } from './search/fileGraph';
import { SymbolTable } from './search/symbolTable';
import { CodeFilesByName, type Namesake } from './search/namesakeCode';
import { TextIndex } from './search/textIndex';

/** What is saved of the contents besides the facts: everything expensive to rebuild. */
export interface SavedContents {
  files: FileFacts[];
  /** Each file's id, as the text index and the graph know it. */
  ids: number[];
  text: unknown;
  graph?: SavedGraph;
}

/**
 * The searchable state of the index: every file's facts, and the three structures built from them (the
 * BM25 text index, the symbol table and the file graph). Files are added, replaced and removed one at a
 * time, which keeps the first two current at once. The graph (0.4 s to build for 5,000 files) is rebuilt
 * on request (`refreshGraph`, which the index schedules after changes); until then searches use the last
 * one, whose edges to changed files are at most a few seconds old.
 */
export class IndexContents {
  private readonly ids = new Map<string, number>();
  private readonly facts = new Map<number, FileFacts>();
  private readonly freeIds: number[] = [];
  private nextId = 0;
  readonly symbols = new SymbolTable();
  private graph: FileGraph | undefined;
  private graphStale = false;
  /** Built on first use; a file added or removed drops it (an edit leaves a file's name as it was). */
  private codeByName: CodeFilesByName | undefined;
  /** Changed since it was restored or saved: only then is it worth writing again. */
  dirty = false;

  constructor(readonly text: TextIndex = TextIndex.empty()) {}

  /** The contents as saved: the text index and graph are loaded, not rebuilt. */
  static restore(saved: SavedContents): IndexContents {
    const contents = new IndexContents(TextIndex.fromJSON(saved.text));
    saved.files.forEach((facts, index) => {
      const id = saved.ids[index]!;
      contents.ids.set(facts.path, id);
      contents.facts.set(id, facts);
      contents.symbols.add(id, facts.symbols);
      contents.nextId = Math.max(contents.nextId, id + 1);
    });
    for (let id = 0; id < contents.nextId; id++) if (!contents.facts.has(id)) contents.freeIds.push(id);
    if (saved.graph) contents.graph = FileGraph.restore(saved.graph);
    return contents;
  }

  save(): SavedContents {
    const files: FileFacts[] = [];
    const ids: number[] = [];
    for (const [id, facts] of this.facts) {
      files.push(facts);
      ids.push(id);
    }
    this.dirty = false;
    return { files, ids, text: this.text.toJSON(), graph: this.graphStale ? undefined : this.graph?.save() };
  }

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
    } else {
      id = this.freeIds.pop() ?? this.nextId++;
      this.ids.set(facts.path, id);
      this.codeByName = undefined;
    }
    this.facts.set(id, facts);
    this.symbols.add(id, facts.symbols);
    this.text.set(id, facts);
    this.graphStale = true;
    this.dirty = true;
  }

  remove(path: string): void {
    const id = this.ids.get(path);
    if (id === undefined) return;
    this.symbols.remove(id, this.facts.get(id)!.symbols);
    this.text.remove(id);
    this.facts.delete(id);
    this.ids.delete(path);
    this.codeByName = undefined;
    this.freeIds.push(id);
    this.graphStale = true;
    this.dirty = true;
  }

  /** The code file a test, a documentation page or a C header is named after (`FooTests.cs` → `Foo.cs`, `timer.rst` → `timer.c`, `idna.h` → `idna.c`), if exactly one. */
  namesakeOf(file: FileFacts): Namesake | undefined {
    this.codeByName ??= new CodeFilesByName(this.ids);
    return this.codeByName.namesakeOf(file, (id) => this.facts.get(id));
  }

  /** The file graph: the last one built, or a new one when there is none yet. */
  fileGraph(): FileGraph {
    return this.graph ?? this.refreshGraph();
  }

  get graphNeedsRefresh(): boolean {
    return this.graphStale || !this.graph;
  }

  refreshGraph(): FileGraph {
    this.graph = FileGraph.build(this.facts, this.symbols);
    this.graphStale = false;
    return this.graph;
  }
}
