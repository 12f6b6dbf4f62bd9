import type { LocalModelProgress } from '../../core/localModel/serveProgress';

/**
 * serve.sh's progress as a few lines on stderr: a line when the step changes, and for steps that count
 * (the build's hundreds of compile steps, the download's packages) one every tenth of the way.
 */
export class LocalModelProgressLines {
  private lastMessage = '';
  private lastTenth = -1;

  constructor(private readonly write: (text: string) => void) {}

  show(progress: LocalModelProgress): void {
    const tenth = progress.fraction === undefined ? -1 : Math.floor(progress.fraction * 10);
    if (progress.message === this.lastMessage && tenth <= this.lastTenth) return;
    if (progress.message !== this.lastMessage) this.lastTenth = -1;
    this.lastMessage = progress.message;
    this.lastTenth = tenth;
    this.write(`· local model: ${progress.message}${tenth >= 0 ? ` ${tenth * 10}%` : ''}\n`);
  }
}
