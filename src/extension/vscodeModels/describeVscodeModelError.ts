import { LanguageModelStalledError, NoLanguageModelError } from './languageModelErrors';

/**
 * A `vscode` provider failure in plain words. VS Code's LanguageModelError carries a code: NoPermissions (the user
 * has not allowed CodeWiki to use that extension's models), Blocked (quota or policy) and NotFound (the model is
 * gone). The provider's own text is kept short; no stack reaches the screen.
 */
export function describeVscodeModelError(error: unknown, modelName: string): string {
  if (error instanceof NoLanguageModelError) return error.message;
  if (error instanceof LanguageModelStalledError)
    return `No response from the VS Code language model ${error.modelName} for ${Math.round(error.timeoutMs / 1000)} s (timeout): try again, or raise codewiki.requestTimeoutSeconds.`;
  if (isAbort(error)) return 'Cancelled';
  const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : undefined;
  const detail = shorten(error instanceof Error ? error.message : String(error));
  switch (code) {
    case 'NoPermissions':
      return `CodeWiki may not use the VS Code language model ${modelName}: allow it when VS Code asks (Accounts menu › Manage Language Model Access), or set codewiki.provider to openai.`;
    case 'Blocked':
      return `The VS Code language model ${modelName} refused the request (quota or policy)${detail ? `: ${detail}` : ''}.`;
    case 'NotFound':
      return `The VS Code language model ${modelName} is no longer available: pick another in codewiki.vscodeModel, or check the extension that provides it.`;
  }
  return `The VS Code language model ${modelName} failed${detail ? `: ${detail}` : ''}`;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'Canceled' || error.name === 'CancellationError');
}

function shorten(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
