/**
 * Authoring: the analysis behind the editor's help for action prompts and agent definitions
 * (completion, hover, go to definition, diagnostics, quick fixes, dry-run previews). Plain
 * functions of the document text; src/extension/authoring adapts them to VS Code.
 */
export { authoringEnvironmentOf, type AuthoringEnvironment } from './authoringEnvironment';
export { authoringKindOf, type AuthoringKind } from './authoringKind';
export { completionsAt, type AuthoringCompletion, type CompletionKind } from './completions';
export { diagnoseDocument, locatedDiagnostics, type LocatedDiagnostic } from './documentDiagnostics';
export { definitionAt, hoverAt, type AuthoringHover, type Span } from './navigation';
export { quickFixesFor, type QuickFix, type TextEdit } from './quickFixes';
export { dryRunPreview, type DryRunPreview } from './dryRunPreview';
