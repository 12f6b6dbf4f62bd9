import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { registerFileTools } from '../../../src/core/tools/file';
import { ToolRegistry } from '../../../src/core/tools/toolRegistry';
import { Workspace, type WorkspaceOptions } from '../../../src/core/workspace/workspace';
import type { WorkspaceFolderInput } from '../../../src/core/workspace/workspaceFolders';

export type FileTreeSpec = Record<string, string | Buffer>;

/** A real folder under the OS temp dir; `cleanup` removes it (call it from `afterEach`). */
export interface TempFolder {
  path: string;
  write(files: FileTreeSpec): void;
  cleanup(): void;
}

export function makeTempFolder(prefix = 'codewiki-test-'): TempFolder {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const folder: TempFolder = {
    path,
    write(files) {
      for (const [relative, content] of Object.entries(files)) {
        const target = join(path, ...relative.split('/'));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    },
    cleanup() {
      rmSync(path, { recursive: true, force: true });
    },
  };
  return folder;
}

/** The file tools registered over a workspace, invoked the way the engine invokes them. */
export interface FileToolHarness {
  workspace: Workspace;
  registry: ToolRegistry;
  invoke<T = unknown>(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<T>;
}

export async function openFileTools(roots: WorkspaceFolderInput | WorkspaceFolderInput[], options?: WorkspaceOptions): Promise<FileToolHarness> {
  const workspace = await Workspace.open(roots, options);
  const registry = new ToolRegistry();
  registerFileTools(registry, workspace);
  return {
    workspace,
    registry,
    invoke: async <T>(name: string, args: Record<string, unknown>, signal = new AbortController().signal) => {
      const entry = registry.get(name);
      if (!entry) throw new Error(`no tool ${name}`);
      return (await entry.tool.invoke(args, { signal })) as T;
    },
  };
}

/** Rejects with the error a promise fails with, or fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}
