import { strict as assert } from 'node:assert';
import type { RunLog, StepLog } from '../../src/core/engine/runLog';
import MarkdownIt from 'markdown-it';
import { runLogMarkdown } from '../../src/extension/runLogMarkdown';

const noTokens = { input: 0, output: 0, total: 0 };

function step(fields: Partial<StepLog> & Pick<StepLog, 'id' | 'tool' | 'status'>): StepLog {
  return { title: fields.id, attempts: 1, tokens: noTokens, ...fields };
}

function runLog(steps: StepLog[]): RunLog {
  return {
    version: 1,
    run_id: 'run-1',
    prompt_id: 'recover',
    prompt_title: 'Recover',
    prompt_file: '/ws/recover.yaml',
    dry_run: false,
    status: 'success',
    started_at: '2026-01-01T00:00:00.000Z',
    duration_ms: 40,
    inputs: {},
    models: {},
    steps,
    total_tokens: noTokens,
    warnings: [],
  };
}

/** The text between `heading` and the next heading of any level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(heading);
  assert.ok(start >= 0, `no "${heading}" in:\n${markdown}`);
  const next = markdown.slice(start + heading.length).search(/\n#{1,4} /);
  return next < 0 ? markdown.slice(start) : markdown.slice(start, start + heading.length + next);
}

/** The readable run-log view (src/extension/runLogMarkdown.ts) shows what the JSON run log has. */
describe('run log as Markdown', () => {
  it("shows each fallback step with its own input, status and output, below the failed step's original input", () => {
    const markdown = runLogMarkdown(
      runLog([
        step({
          id: 'read',
          tool: 'read_file',
          status: 'success',
          input: { path: 'missing.txt' },
          recovered_by: 'fallback',
          error: 'missing.txt does not exist',
          output_preview: 'PRESENT-CONTENT',
          fallback: [
            { id: 'read_cache', tool: 'read_file', status: 'failed', input: { path: 'cache.txt' }, error: 'cache.txt does not exist' },
            { id: 'read_other', tool: 'read_file', status: 'success', input: { path: 'present.txt' }, output_preview: 'PRESENT-CONTENT' },
          ],
        }),
      ]),
      'run-1.json',
    );
    const stepPart = section(markdown, '### read');
    assert.match(stepPart, /recovered by its fallback/);
    assert.match(stepPart, /\*\*Input\*\*\n\n```text\n\{\n  "path": "missing\.txt"\n\}\n```/, 'the step keeps its original input');

    const first = section(markdown, '#### Fallback 1 of 2: read\\_cache');
    assert.match(first, /`read_cache` · `read_file` · ✗ failed/);
    assert.match(first, /"path": "cache\.txt"/);
    assert.match(first, /\*\*Error:\*\* cache\.txt does not exist/);
    const second = section(markdown, '#### Fallback 2 of 2: read\\_other');
    assert.match(second, /`read_other` · `read_file` · ✓ done/);
    assert.match(second, /\*\*Input\*\*\n\n```text\n\{\n  "path": "present\.txt"\n\}\n```/);
    assert.match(second, /\*\*Output\*\*\n\n```text\nPRESENT-CONTENT\n```/);
    assert.ok(
      markdown.indexOf('missing.txt') < markdown.indexOf('cache.txt') && markdown.indexOf('cache.txt') < markdown.indexOf('present.txt'),
      'in the order they ran',
    );
  });

  it('a single fallback step is headed without a count; a step without one has no fallback section', () => {
    const markdown = runLogMarkdown(
      runLog([
        step({
          id: 'read',
          tool: 'read_file',
          status: 'failed',
          input: { path: 'a' },
          fallback: [{ id: 'again', tool: 'read_file', status: 'cancelled', input: { path: 'b' } }],
        }),
        step({ id: 'plain', tool: 'list_files', status: 'success', output_preview: '[]' }),
      ]),
      'run-1.json',
    );
    assert.match(section(markdown, '#### Fallback: again'), /· ⊘ cancelled/);
    assert.doesNotMatch(section(markdown, '### plain'), /Fallback/);
  });

  it("counts a for_each step's items by outcome", () => {
    const markdown = runLogMarkdown(
      runLog([
        step({
          id: 'each',
          tool: 'summarize_llm_tool',
          status: 'failed',
          items: 5,
          item_errors: [{ item: 2, error: 'HTTP 400' }],
          item_results: [
            { item: 0, status: 'success' },
            { item: 1, status: 'success' },
            { item: 2, status: 'failed', error: 'HTTP 400' },
            { item: 3, status: 'success' },
            { item: 4, status: 'not_started' },
          ],
        }),
      ]),
      'run-1.json',
    );
    assert.match(section(markdown, '### each'), /Items: 5: 3 done, 1 failed, 1 not started/);
  });

  it('values a prompt file controls (prompt id, model names, titles) cannot become an image or a link the preview would fetch', () => {
    const beacon = 'x` ![b](https://evil.example/beacon.png) [l](https://evil.example/) `';
    const log = {
      ...runLog([step({ id: 'read', tool: 'read_file', status: 'success', title: beacon })]),
      prompt_id: beacon,
      prompt_title: beacon,
      models: { main: beacon, tool: beacon },
    };
    const markdown = runLogMarkdown({ ...log, final: { model: beacon, output: 'done', tokens: noTokens, sent: true } } as RunLog, 'run-1.json');
    // The built-in Markdown preview is markdown-it; an <img> or <a href> to another host would load or be one click away.
    const html = new MarkdownIt().render(markdown);
    assert.doesNotMatch(html, /<img/, html);
    assert.doesNotMatch(html, /href="https:\/\/evil/, html);
    assert.match(html, /evil\.example\/beacon\.png/, 'the text is still shown, as text');
    assert.match(html, /<td><code>x' !\[b\]/, 'the prompt id stays in its table cell');
  });
});
