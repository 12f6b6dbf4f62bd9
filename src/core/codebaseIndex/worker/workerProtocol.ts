import type { CodeIndex, IndexStatus } from '../codeIndexTypes';
import type { WorkspaceOptions } from '../../workspace/workspace';
import type { WorkspaceFolderInput } from '../../workspace/workspaceFolders';

/** What the worker is started with: enough to open the same workspace, with the same policy, in its own thread. */
export interface IndexWorkerData {
  /** The workspace's folders, first one first, with the names their paths begin with. */
  roots: WorkspaceFolderInput[];
  workspaceOptions: WorkspaceOptions;
  storeDir?: string;
  maxFileBytes?: number;
}

/** The index methods the worker answers, by name, with their arguments as the interface takes them. */
export type IndexMethod =
  | 'update'
  | 'rebuild'
  | 'refreshFiles'
  | 'findSymbol'
  | 'searchCode'
  | 'repoMap'
  | 'questionContext'
  | 'structure'
  | 'prepareForQuestions'
  | 'memory'
  | 'dispose';

export type WorkerRequest =
  | { type: 'call'; id: number; method: IndexMethod; args: unknown[] }
  /** Stops the update or rebuild started by request `id`. */
  | { type: 'cancel'; id: number };

export type WorkerReply =
  { type: 'result'; id: number; value: unknown } | { type: 'error'; id: number; message: string; cancelled: boolean } | { type: 'status'; status: IndexStatus };

/** The methods whose arguments end in an options object that can carry a signal. */
export const CANCELLABLE: ReadonlySet<IndexMethod> = new Set(['update', 'rebuild']);

export type CodeIndexMethods = Pick<CodeIndex, Exclude<IndexMethod, 'memory' | 'prepareForQuestions'>>;

/** How long closing waits for the worker to save a pending change before it is stopped anyway. */
export const DISPOSE_WAIT_MS = 3_000;
