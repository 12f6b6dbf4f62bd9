import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempWorkspace } from '../support/engineBuilders';
import { OpenAiTestServer } from '../support/openaiServer';
import { runCli } from '../support/runCli';

/**
 * A false `condition` skips its step and, by default, every step that reads that step's output:
 * they would otherwise run on an empty value and spend an LLM call. `{name ?? "default"}` and
 * `run_if_skipped: true` opt back in. Run through the built CLI against the scripted server, so
 * "no LLM call" means no request reached the server.
 */
const CHAIN = `title: Review, then summarise the review
input_variables:
  - name: deep
    type: boolean
    default: false
  - name: topic
    default: retries
tool_chain:
  - id: review
    tool: summarize_llm_tool
    condition: deep
    input:
      content: "REVIEW-PROMPT about {topic}"
    output_variable: review
  - id: review_summary
    tool: summarize_llm_tool
    input:
      content: "SUMMARY-OF-REVIEW {review}"
    output_variable: review_summary
  - id: second_hand
    tool: summarize_llm_tool
    input:
      content: "SECOND-HAND {review_summary}"
    output_variable: second_hand
  - id: with_default
    tool: summarize_llm_tool
    input:
      content: "WITH-DEFAULT {review ?? \\"no review\\"}"
    output_variable: with_default
  - id: opted_in
    tool: summarize_llm_tool
    run_if_skipped: true
    input:
      content: "OPTED-IN [{review}]"
    output_variable: opted_in
output: "{with_default} | {opted_in} | {review_summary ?? 'none'}"
`;

describe('skipped steps on the CLI (scripted server)', () => {
  let server: OpenAiTestServer;
  let ws: ReturnType<typeof tempWorkspace>;
  const env = () => ({ CODEWIKI_BASE_URL: server.url, CODEWIKI_MODEL: 'main-model' });

  beforeEach(async () => {
    server = new OpenAiTestServer((request) => ({ text: `answer to ${request.promptText.match(/[A-Z-]{8,}/)?.[0] ?? '?'}` }));
    await server.start();
    ws = tempWorkspace({});
    writeFileSync(join(ws.root, 'review.yaml'), CHAIN);
  });
  afterEach(async () => {
    await server.close();
    ws.cleanup();
  });

  it('skips the readers of a skipped output without calling the model; ?? and run_if_skipped still run', async () => {
    const log = join(ws.root, 'log.json');
    const result = await runCli(['run', join(ws.root, 'review.yaml'), '--workspace', ws.root, '--log', log], { env: env() });
    assert.equal(result.code, 0, result.stderr);

    const sent = server.requests.map((r) => r.promptText);
    assert.equal(sent.length, 2, `only the two opted-in steps reach the server; got:\n${sent.join('\n---\n')}`);
    assert.ok(
      sent.some((text) => /WITH-DEFAULT no review/.test(text)),
      'the default replaces the skipped value',
    );
    assert.ok(
      sent.some((text) => /OPTED-IN \[\]/.test(text)),
      'run_if_skipped runs on the empty value',
    );
    assert.ok(!sent.some((text) => /REVIEW-PROMPT|SUMMARY-OF-REVIEW|SECOND-HAND/.test(text)));

    const runLog = JSON.parse(readFileSync(log, 'utf8'));
    const status = Object.fromEntries(runLog.steps.map((s: { id: string; status: string }) => [s.id, s.status]));
    assert.deepEqual(status, { review: 'skipped', review_summary: 'skipped', second_hand: 'skipped', with_default: 'success', opted_in: 'success' });
    const byId = (id: string) => runLog.steps.find((s: { id: string }) => s.id === id);
    assert.match(byId('review_summary').skipped_reason, /reads \{review\}, the output of the skipped step "review"/);
    assert.match(byId('second_hand').skipped_reason, /reads \{review_summary\}, the output of the skipped step "review_summary"/);
    assert.equal(runLog.status, 'success');
    assert.equal(result.stdout.trim(), 'answer to WITH-DEFAULT | answer to OPTED-IN | none');
  });

  it('runs the whole chain when the condition is true', async () => {
    const result = await runCli(['run', join(ws.root, 'review.yaml'), '--workspace', ws.root, '--input', 'deep=true'], { env: env() });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, 5);
  });
});
