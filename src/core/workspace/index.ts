export { Workspace, type ResolvedPath, type WorkspaceLimits, type WorkspaceOptions } from './workspace';
export { WorkspaceAccessError, type WorkspaceAccessCode } from './workspaceErrors';
export { walkWorkspace, type WalkEntry, type WalkOptions, type WalkResult } from './walkWorkspace';
export { DEFAULT_SECRET_PATTERNS } from './secretPolicy';
