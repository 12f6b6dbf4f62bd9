/** Errors the `vscode` provider raises itself; describeVscodeModelError.ts turns them into words for the user. */

/** The VS Code model accepted the request, then sent nothing for `timeoutMs` (codewiki.requestTimeoutSeconds). */
export class LanguageModelStalledError extends Error {
  override readonly name = 'LanguageModelStalledError';

  constructor(
    readonly modelName: string,
    readonly timeoutMs: number,
    when: 'start' | 'stream' = 'stream',
  ) {
    super(
      when === 'start'
        ? `${modelName} did not start answering within ${Math.round(timeoutMs / 1000)} s (if VS Code asked whether CodeWiki may use the model, allow it and retry)`
        : `${modelName} sent nothing for ${Math.round(timeoutMs / 1000)} s`,
    );
  }
}

/** No `vscode.lm` model can answer: none is offered, none matches the setting, or this VS Code is too old. */
export class NoLanguageModelError extends Error {
  override readonly name = 'NoLanguageModelError';
}
