import { cpus, loadavg } from 'node:os';
import { acquireEnvironment, releaseEnvironment, type WebviewEnvironment } from '../test/webview/support/browser';
import { HOSTILE_ANSWERS } from '../test/webview/support/hostileAnswers';
import { type BenchRow, fmt, median } from './benchTable';
import { at, openStreamingAnswer, renderCpu, STREAM_ID, threadMs } from './webviewBench';

/** Chunks of a streamed answer, as the issue measured it. */
const CHUNKS = 20;

/**
 * Sends each chunk in its own frame (past the app's 50 ms paint throttle, so no two chunks are
 * rendered together), then the done message; returns what the answer shows, to compare the two ways.
 */
const STREAM_SCRIPT = `async ({ id, chunks, full }) => {
  const rendered = () => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => setTimeout(resolve, 0)), 60));
  for (const text of chunks) {
    window.postMessage({ type: 'chat/chunk', messageId: id, text }, '*');
    await rendered();
  }
  window.postMessage({ type: 'chat/done', message: { kind: 'assistant', id, createdAt: '${at}', text: full, status: 'done' } }, '*');
  await rendered();
  const list = document.querySelector('cw-app').shadowRoot.querySelector('cw-message-list');
  const body = list.shadowRoot.querySelector('cw-message[data-id="' + id + '"]').shadowRoot.querySelector('.markdown');
  return body.querySelectorAll('*').length + ' elements, ' + body.textContent.length + ' characters';
}`;

interface Cost {
  renderMs: number;
  threadMs: number;
  shown: string;
}

/** CPU of rendering `text` sent in `chunks` pieces (1: rendered once), from the trace of the page's main thread. */
async function streamCost(env: WebviewEnvironment, text: string, chunks: number): Promise<Cost> {
  const view = await openStreamingAnswer(env, 'hostile');
  try {
    const size = Math.ceil(text.length / chunks);
    const pieces = Array.from({ length: chunks }, (_, i) => text.slice(i * size, (i + 1) * size));
    const cdp = await view.page.context().newCDPSession(view.page);
    await cdp.send('Performance.enable');
    const before = await threadMs(cdp);
    await env.browser.startTracing(view.page, { categories: ['devtools.timeline'] });
    const shown = (await view.page.evaluate(`(${STREAM_SCRIPT})(${JSON.stringify({ id: STREAM_ID, chunks: pieces, full: text })})`)) as string;
    const trace = await env.browser.stopTracing();
    const thread = (await threadMs(cdp)) - before;
    const problems = await view.problems();
    if (problems.length) throw new Error(`the page reported problems: ${problems.join('; ')}`);
    return { renderMs: renderCpu(trace).renderMs, threadMs: thread, shown };
  } finally {
    await view.close();
  }
}

/**
 * Answers a model can be made to write (issue 22, item 7), streamed in 20 chunks against the same
 * answer rendered once: rendering CPU of the app (its frames and the done message) and the whole
 * main thread beside it. Streaming should cost about what rendering once costs: a block that
 * keeps growing renders again each time the text that arrived pays for it (`renderBudget.ts`),
 * about each time it doubles, and in full when done, so 2 to 3× (4× allows for a busy machine);
 * rendering every chunk's open block in full, as before, was 6 to 12× (and more with definitions).
 */
export async function benchHostileMarkdown(options: { runs?: number; shapes?: string[] } = {}): Promise<BenchRow[]> {
  const { runs = 3, shapes = Object.keys(HOSTILE_ANSWERS) } = options;
  const env = await acquireEnvironment();
  try {
    const rows: BenchRow[] = [];
    for (const shape of shapes) {
      const { count, text: make } = HOSTILE_ANSWERS[shape];
      const text = make(count);
      const streamed: Cost[] = [];
      const once: Cost[] = [];
      for (let run = 0; run < runs; run++) {
        streamed.push(await streamCost(env, text, CHUNKS));
        once.push(await streamCost(env, text, 1));
        if (streamed[run].shown !== once[run].shown)
          throw new Error(`${shape}: streamed, the answer shows ${streamed[run].shown}; rendered once, ${once[run].shown}`);
      }
      const render = [median(streamed.map((c) => c.renderMs)), median(once.map((c) => c.renderMs))];
      const thread = [median(streamed.map((c) => c.threadMs)), median(once.map((c) => c.threadMs))];
      const ratio = render[0] / render[1];
      rows.push({
        figure: `Webview: ${count.toLocaleString('en-US')} ${shape} (${fmt(text.length / 1024, 0)} KB) streamed in ${CHUNKS} chunks vs rendered once: rendering CPU, median of ${runs} (whole main thread: ${fmt(thread[0], 0)} vs ${fmt(thread[1], 0)} ms; load avg ${fmt(loadavg()[0], 1)} on ${cpus().length} cores)`,
        result: `${fmt(render[0], 0)} vs ${fmt(render[1], 0)} ms (${fmt(ratio, 1)}×)`,
        goal: '≤ 4×',
        met: ratio <= 4,
      });
    }
    return rows;
  } finally {
    releaseEnvironment();
  }
}
