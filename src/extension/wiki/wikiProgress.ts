import type { ExecutorEvent } from '../../core/engine/executorEvents';
import type { ProseTarget } from '../../core/wiki/codeWiki';
import type { WikiProgress } from '../../shared/wikiProtocol';

/**
 * Follows a run of the `wiki` action prompt: its for_each step writes one module page per item
 * (one at a time), then a step writes the overview. `modules` and `overview` are what the plan
 * said before the run, so the bar knows its length from the start; a workspace's own `wiki` prompt
 * may differ, and the total then grows with what actually runs.
 */
export class WikiProgressTracker {
  private modulesStarted = 0;
  private modulesDone = false;
  private overviewDone = false;
  private label = 'Planning the pages';
  private readonly titles: Map<string, string>;
  /** Why pages could not be written (a failed step, or the items of the for_each that failed): the run itself goes on. */
  readonly problems: string[] = [];

  constructor(
    private readonly modules: ProseTarget[],
    private readonly overview: boolean,
  ) {
    this.titles = new Map(modules.map((target) => [target.page, target.title]));
  }

  /** Applies one executor event; true when what the user sees changed. */
  update(event: ExecutorEvent): boolean {
    switch (event.type) {
      case 'tool-start': {
        if (event.attempt !== 1) return false;
        if (event.item !== undefined) {
          this.modulesStarted++;
          const page = pageOf(event.input);
          this.label = `Writing ${(page && this.titles.get(page)) ?? page ?? 'a module page'}`;
          return true;
        }
        if (pageOf(event.input) === 'index.md') {
          this.modulesDone = true;
          this.label = 'Writing the overview';
          return true;
        }
        return false;
      }
      case 'tool-end':
      case 'tool-error':
      case 'step-skipped':
        if (event.type === 'tool-error') this.problems.push(event.error);
        if (event.stepId === 'modules') this.modulesDone = true;
        if (event.stepId === 'overview') this.overviewDone = true;
        return event.stepId === 'modules' || event.stepId === 'overview';
      default:
        return false;
    }
  }

  get progress(): WikiProgress {
    const moduleTotal = Math.max(this.modules.length, this.modulesStarted);
    const total = moduleTotal + (this.overview ? 1 : 0);
    // One page at a time: every page started before the one being written is done.
    const modulesDone = this.modulesDone ? moduleTotal : Math.max(0, this.modulesStarted - 1);
    return { done: Math.min(total, modulesDone + (this.overview && this.overviewDone ? 1 : 0)), total, label: this.label };
  }
}

function pageOf(input: unknown): string | undefined {
  const page = (input as { page?: unknown } | null)?.page;
  return typeof page === 'string' ? page : undefined;
}
