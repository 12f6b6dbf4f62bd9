/**
 * The codebase index's vocabulary, shared by the builder, the searches, the worker protocol and the
 * tools. Types only, so every part of the index (and its hosts) can import it without cycles.
 */

export type SymbolKind =
  | 'class'
  | 'interface'
  | 'type'
  | 'enum'
  | 'struct'
  | 'trait'
  | 'module'
  | 'function'
  | 'method'
  | 'constant'
  | 'variable'
  | 'field'
  | 'macro'
  | 'selector'
  | 'section';

/** A definition found in a file. Lines are 1-based and inclusive. */
export interface SymbolDef {
  name: string;
  kind: SymbolKind;
  line: number;
  endLine: number;
  /** The declaration's head on one line (up to its body), capped. */
  signature: string;
  /** The enclosing class, module, impl or namespace. */
  container?: string;
  /** The first line of its doc comment or docstring. */
  doc?: string;
  /**
   * Declared here without its body (a C or C++ prototype, a method declared in its class): the code is where the
   * same name is defined with a body, which "where is X defined?" asks for first.
   */
  declaration?: true;
}

/** How a file's definitions were found. */
export type ParsedBy = 'tree-sitter' | 'outline' | 'none';

/** Why a walked file holds no content in the index. */
export type SkipReason = 'too-large' | 'binary' | 'minified' | 'unreadable';

/** What the index keeps of one file: enough to search and rank it without reading it again. */
export interface FileFacts {
  /** As tools show paths (Workspace.displayPath). */
  path: string;
  language: string;
  /** sha256 of the content, hex: the key that decides whether a file must be parsed again. */
  hash: string;
  size: number;
  mtimeMs: number;
  parsedBy: ParsedBy;
  skipped?: SkipReason;
  symbols: SymbolDef[];
  /**
   * Identifiers the file mentions, space-separated, each once, `name*3` when it appears three times:
   * compact, because a 5,000-file repository mentions a million of them. Names defined in other files
   * become edges of the file graph.
   */
  mentions: string;
  /** Import specifiers as written (`./util`, `os.path`, `github.com/x/y`), resolved to files by the graph. */
  imports: string[];
  /** The file's opening lines (doc comment, package line), for files whose meaning is not in symbols. */
  head: string;
  /** Its head says it is generated ("Code generated … DO NOT EDIT", "@generated"): ranked below hand-written code. */
  generated?: boolean;
}

export type IndexState = 'idle' | 'building' | 'ready' | 'failed' | 'disabled';

export interface IndexStatus {
  state: IndexState;
  /** Files whose facts are in the index now (usable while building). */
  indexedFiles: number;
  /** Files the walk found; 0 until the walk is done. */
  totalFiles: number;
  symbols: number;
  /** Files parsed (not reused) by the current or last build. */
  parsedFiles?: number;
  durationMs?: number;
  /** Bytes of the saved index on disk. */
  storedBytes?: number;
  /** Problems that did not stop the index (a corrupt saved index rebuilt, a file skipped). */
  warnings?: string[];
  error?: string;
}

/** A definition found by name. */
export interface SymbolMatch extends SymbolDef {
  path: string;
  /** exact: same name; case: same name ignoring case; partial: the query is part of the name; fuzzy: a near spelling. */
  match: 'exact' | 'case' | 'partial' | 'fuzzy';
}

export interface CodeLine {
  line: number;
  text: string;
  /** The definition the line sits in, e.g. `Session.send`. */
  within?: string;
}

/** One ranked file of a search, with the lines that made it rank. */
export interface CodeSearchHit {
  path: string;
  score: number;
  /** Definitions in the file whose names, docs or bodies hold the query's words, best first. */
  symbols: Array<Pick<SymbolDef, 'name' | 'kind' | 'line' | 'signature'>>;
  /** Its lines that hold the query's words, best first (not in file order): a short list shows the first. */
  lines: CodeLine[];
}

export interface CodeSearchOptions {
  limit?: number;
  /** Rank with the file graph too (default true). */
  useGraph?: boolean;
  /** Favour files that define a name the query spells exactly (default true). */
  useExactNames?: boolean;
  /** Only files under this workspace-relative folder or equal to this file. */
  pathPrefix?: string;
  /** Show each file's best lines (default true); without them, only the 20 best candidates are read, for proximity. */
  withLines?: boolean;
  /** Rank the best candidates by how closely their text gathers the query's words too (default true; the evaluation turns it off to compare). */
  useProximity?: boolean;
}

export interface RepoMapOptions {
  /** Estimated tokens the rendered map may take. */
  budgetTokens: number;
  /** A question or names: the map favours the files and definitions it mentions. Without it, the map is the same for every question. */
  focus?: string;
}

export interface RepoMap {
  text: string;
  files: number;
  symbols: number;
  tokens: number;
}

/**
 * What a question starts from: the ranked candidates rendered for the model, and the definitions whose
 * names the question spells exactly (shown to the user at once, as cards).
 */
export interface QuestionContext {
  /** Rendered for the model; empty when the index found nothing worth sending. */
  text: string;
  tokens: number;
  /** Definitions the question names exactly: the cards, whether or not the list had room for them. */
  definitions: SymbolMatch[];
  /** The ranked files the list shows, best first: what the model has seen of the workspace. */
  hits: CodeSearchHit[];
  /** Set while the index is still building: the candidates come from part of the workspace. */
  partial?: { indexedFiles: number; totalFiles: number };
}

/** One file of the whole-index view: its facts as a reader of everything needs them. */
export interface StructureFile {
  path: string;
  language: string;
  /** sha256 of the content: what says a page written from this file is out of date. */
  hash: string;
  size: number;
  /** Global PageRank over the file graph: how much the rest of the workspace leans on the file. */
  rank: number;
  head: string;
  generated?: boolean;
  skipped?: SkipReason;
  /** Its definitions, each with how many other files mention its name. */
  symbols: Array<SymbolDef & { uses: number }>;
}

/** The whole index at once (the wiki's input): every file, and the file graph as `[from, to, weight]` indices into `files` (names shared and imports). */
export interface CodeStructure {
  files: StructureFile[];
  edges: Array<[number, number, number]>;
  /** Imports resolved to files, `[from, to]`: what a file depends on, without the guesswork of shared names. */
  imports: Array<[number, number]>;
}

export interface QuestionContextOptions {
  /** Tokens the list may take (default 700). */
  budgetTokens?: number;
  /**
   * `full`: up to two definitions and two matching lines per file. `compact`: one of each, for small local models,
   * which pay for every token of it before their first word (about 60 a second on 2 cores); on bench/eval the 1.5B
   * default answered as often right from the shorter list, in half the time.
   */
  detail?: 'full' | 'compact';
}

/**
 * The index as its users see it: the agent, the tools, the CLI and the extension. Implemented in
 * process (CodebaseIndex) and over a worker thread (WorkerCodeIndex), with the same behaviour.
 */
export interface CodeIndex {
  status(): IndexStatus;
  onStatus(listener: (status: IndexStatus) => void): () => void;
  /** Builds or updates the index (walk, reuse unchanged files by hash, parse the rest); resolves when done. */
  update(options?: { signal?: AbortSignal }): Promise<IndexStatus>;
  /** Forgets everything stored and builds again. */
  rebuild(options?: { signal?: AbortSignal }): Promise<IndexStatus>;
  /** These absolute paths changed, appeared or disappeared: re-index them alone. */
  refreshFiles(absolutePaths: string[]): Promise<void>;
  findSymbol(name: string, options?: { limit?: number }): Promise<SymbolMatch[]>;
  searchCode(query: string, options?: CodeSearchOptions): Promise<CodeSearchHit[]>;
  repoMap(options: RepoMapOptions): Promise<RepoMap>;
  questionContext(question: string, options?: QuestionContextOptions): Promise<QuestionContext>;
  /** Every file with its definitions, ranks and the file graph: what the wiki is built from. */
  structure(): Promise<CodeStructure>;
  dispose(): Promise<void>;
}
