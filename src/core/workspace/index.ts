export { Workspace, type ResolvedPath, type WorkspaceLimits, type WorkspaceOptions } from './workspace';
export { WorkspaceAccessError, type WorkspaceAccessCode } from './workspaceErrors';
