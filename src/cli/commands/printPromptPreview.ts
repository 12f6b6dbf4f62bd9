import { formatPromptPreview, type PromptPreviewEvent } from '../../core/authoring/dryRunPreview';

/** How a dry run shows a prompt it did not send; the editor's dry-run preview uses the same text (core/authoring). */
export function printPromptPreview(out: NodeJS.WritableStream, event: PromptPreviewEvent): void {
  out.write(formatPromptPreview(event));
}
