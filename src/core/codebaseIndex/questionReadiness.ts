import type { IndexContents } from './indexContents';
import { prepareForRanking } from './search/rankFiles';

/**
 * How long the worker prepares for questions before it lets a query through (the build's slices are as long): one
 * file's work more at most, and the warm-up question is not cut.
 */
const PREPARE_SLICE_MS = 15;
/**
 * A question that takes every step of the first turn's lookup on most code: a name in backquotes to look up (where a
 * `main` is defined), words for the text index, the graph, the proximity of its words and the best lines, and the list
 * the model is given.
 */
const WARM_UP_QUESTION = 'Where is `main`, and where is the configuration read and checked?';

/** What readiness needs of the index it readies. */
export interface ReadinessHost {
  /** The index's contents now: a rebuild replaces them. */
  contents(): IndexContents;
  /** Whether the index was disposed: readiness then stops. */
  stopped(): boolean;
  /** Whether a question can be asked now without waiting on a build or starting one: ready, with files. */
  readyWithFiles(): boolean;
  /** Asks a question the way the agent's first turn does. */
  ask(question: string): Promise<unknown>;
}

/**
 * Readies an index for questions in idle time; a long-lived index (the extension's worker) starts it after each build.
 * It computes what the ranking keeps per file (a file done before costs a lookup), in slices of about 15 ms so that a
 * query sent meanwhile is answered between two of them, and the first time the index is ready with files it asks one
 * question so the search code is compiled (that question is not sliced). Without it, the first searches after a load
 * took 30–105 ms where later ones take 5–20 (hashicorp/terraform, 5,400 files). A call while one runs joins it;
 * contents replaced meanwhile (a rebuild) are prepared in the same run.
 */
export class QuestionReadiness {
  private running: Promise<void> | undefined;
  private warmedUp = false;

  constructor(private readonly host: ReadinessHost) {}

  prepare(): Promise<void> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<void> {
    let contents: IndexContents;
    do {
      contents = this.host.contents();
      await this.prepareFiles(contents);
    } while (!this.host.stopped() && this.host.contents() !== contents);
    // Not while a build runs (a search would wait on it, or start one): the build's end prepares again.
    if (this.warmedUp || this.host.stopped() || !this.host.readyWithFiles()) return;
    this.warmedUp = true;
    await this.host.ask(WARM_UP_QUESTION);
  }

  /** Stops early when the contents are replaced (a rebuild): run then starts over on the new ones. */
  private async prepareFiles(contents: IndexContents): Promise<void> {
    let sliceStart = performance.now();
    for (const facts of [...contents.all()]) {
      if (performance.now() - sliceStart > PREPARE_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.host.stopped() || this.host.contents() !== contents) return;
        sliceStart = performance.now();
      }
      prepareForRanking(facts);
    }
  }
}
