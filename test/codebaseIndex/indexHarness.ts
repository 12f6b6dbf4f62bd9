import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodebaseIndex } from '../../src/core/codebaseIndex/codebaseIndex';
import { Workspace, type WorkspaceOptions } from '../../src/core/workspace/workspace';
import { makeTempFolder, type FileTreeSpec, type TempFolder } from '../tools/helpers/tempWorkspace';

/** A real workspace folder and a store folder beside it (never inside: the index is saved outside the workspace). */
export class IndexFixture {
  readonly folder: TempFolder;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'codewiki-index-store-'));
  private readonly opened: CodebaseIndex[] = [];

  constructor(files: FileTreeSpec) {
    this.folder = makeTempFolder('codewiki-index-ws-');
    this.folder.write(files);
  }

  get root(): string {
    return this.folder.path;
  }

  /** A new index over the folder, as a new window or CLI run would open it. */
  async open(options: WorkspaceOptions = {}, store = true, progressIntervalMs?: number): Promise<CodebaseIndex> {
    const workspace = await Workspace.open(this.root, options);
    const index = new CodebaseIndex({ workspace, storeDir: store ? this.storeDir : undefined, saveDelayMs: 10, progressIntervalMs });
    this.opened.push(index);
    return index;
  }

  async close(): Promise<void> {
    for (const index of this.opened) await index.dispose();
    this.folder.cleanup();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
