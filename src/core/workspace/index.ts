export { Workspace, type ResolvedPath, type WorkspaceLimits, type WorkspaceOptions } from './workspace';
export { WorkspaceAccessError, type WorkspaceAccessCode } from './workspaceErrors';
export { folderPrefixes, type WorkspaceFolderInput, type WorkspaceFolderSpec } from './workspaceFolders';
