import type * as vscode from 'vscode';

/** Placeholder until the sidebar lands (issue 3); the engine already runs through the CLI. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
