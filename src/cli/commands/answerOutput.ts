/**
 * stdout carries the answer only. To a terminal it streams as the model writes; an answer the agent sent back (a
 * check asked the model again) stays on screen above its replacement, and stderr's `!` line says why. To a pipe or a
 * file it is written once, when the run ends or is cancelled, without what was sent back: a script gets the answer.
 */
export class AnswerOutput {
  private pending = '';
  private wrote = false;
  private lastChar = '\n';

  constructor(
    private readonly out: NodeJS.WritableStream,
    private live = (out as { isTTY?: boolean }).isTTY === true,
  ) {}

  text(text: string): void {
    if (this.live) this.write(text);
    else this.pending += text;
  }

  /** The answer so far was sent back: what follows replaces it. */
  restart(): void {
    if (!this.live) this.pending = '';
  }

  /** Before a line on stderr: on a terminal, the answer's line is ended first, so the two do not run together. */
  breakLine(): void {
    if (this.live && this.lastChar !== '\n') this.write('\n');
  }

  /**
   * Writes what is held back (`answer`, the run's own, when it ended: calls written as text taken out), and ends the
   * answer with a line break. Once: a later call writes nothing.
   */
  end(answer?: string): void {
    if (!this.live) this.write((answer ?? this.pending).trimStart());
    this.pending = '';
    this.live = true; // from now on nothing is held back
    if (this.wrote && this.lastChar !== '\n') this.write('\n');
  }

  private write(text: string): void {
    if (!text) return;
    this.out.write(text);
    this.wrote = true;
    this.lastChar = text.at(-1)!;
  }
}
