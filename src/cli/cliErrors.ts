/** Exit codes are part of the CLI's contract with scripts and CI. */
export const EXIT = {
  ok: 0,
  /** A step or the model failed. */
  failed: 1,
  /** Invalid usage, an invalid file or a missing required input; nothing was run. */
  usage: 2,
  /** Interrupted (Ctrl-C), like a shell reports SIGINT. */
  cancelled: 130,
} as const;

/** An error whose message is the whole story for the user: printed without a stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
