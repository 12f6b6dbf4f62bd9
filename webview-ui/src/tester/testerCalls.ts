import { html, nothing } from 'lit';
import type { TesterCallCheck, TesterProbe, TesterProbeAttempt } from '../../../src/shared/toolTesterProtocol';
import type { TesterModel, TesterView } from './testerModel';

const PLACEHOLDER = `Paste what a model wrote, e.g.
<<<[TOOL_REQUEST]>>>
tool_name: 「始」read_file「末」
path: 「始」README.md「末」
<<<[END_TOOL_REQUEST]>>>
or {"name": "read_file", "arguments": {"path": "README.md"}}, or a native tool_calls value.`;

/** Manual run: paste model-style text, see what the agent would read from it, then run a call for real. */
export function manualSection(view: TesterView, model: TesterModel) {
  const busy = Boolean(view.pending);
  return html`<textarea class="pasted" aria-label="Model output to parse" placeholder=${PLACEHOLDER} .value=${view.pasted}
      @input=${(e: Event) => model.setPasted((e.target as HTMLTextAreaElement).value)}></textarea>
    <div class="row"><button class="parse" ?disabled=${busy} @click=${() => model.parse()}>Parse</button>
      ${view.pending?.kind === 'run' ? html`<span class="muted running">Running…</span><button class="secondary" @click=${() => model.cancel()}>Cancel</button>` : nothing}</div>
    ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : nothing}
    ${view.parse ? parseResult(view, model) : nothing}`;
}

function parseResult(view: TesterView, model: TesterModel) {
  const parse = view.parse!;
  if (!parse.calls.length) return html`<p class="error parse-error">${parse.error ?? 'No tool call found.'}</p>`;
  return html`<p class="muted parse-form">Read as: <strong>${formName(parse.form)}</strong>, ${parse.calls.length} call${parse.calls.length === 1 ? '' : 's'}</p>
    ${parse.calls.map((call, index) => callCard(call, index, view, model))}`;
}

function callCard(call: TesterCallCheck, index: number, view: TesterView, model: TesterModel) {
  const ran = view.run?.index === index ? view.run : undefined;
  return html`<div class="call" data-call=${index}>
    <div class="row"><strong>${call.tool?.displayName ?? call.name}</strong><code class="muted">${call.name || '(no name)'}</code>
      ${call.tool ? html`<span class="badge kind" data-kind=${call.tool.kind}>${call.tool.kind}</span>` : nothing}
      <span class=${call.valid ? 'ok validity' : 'bad validity'}>${call.valid ? 'valid' : 'not valid'}</span></div>
    <pre class="args">${call.args ? JSON.stringify(call.args, null, 2) : call.rawArgs}</pre>
    ${call.problem ? html`<p class="error problem">${call.problem}</p>` : nothing}
    <p class="approval">${call.approval.needed ? 'Needs approval: ' : call.approval.autoApproved ? 'Auto-approved: ' : ''}${call.approval.why}</p>
    <div class="row"><button class="run" ?disabled=${!call.valid || Boolean(view.pending)} @click=${() => model.run(index)}>Run</button>
      ${call.approval.needed ? html`<span class="muted">VS Code will ask before it runs.</span>` : nothing}</div>
    ${ran ? html`<div class="result"><p>Result: <strong class="run-status">${ran.status}</strong> · <span class="duration">${ran.durationMs} ms</span></p><pre class="run-content">${ran.content}</pre></div>` : nothing}
  </div>`;
}

function formName(form: string | undefined): string {
  return form === 'text-protocol'
    ? 'a text-protocol block'
    : form === 'native'
      ? 'a native tool_calls value'
      : form === 'json'
        ? 'a JSON call written as text'
        : 'nothing';
}

/** Test my server: one tool-calling question, natively and by the text protocol, with the raw exchanges. */
export function probeSection(view: TesterView, model: TesterModel) {
  const { probe } = view;
  const setting = view.state?.protocolSetting;
  return html`<p class="muted">Sends the configured model one small tool-calling question twice: once with native <code>tools</code>, once through the text protocol.</p>
    <div class="row"><button class="probe" ?disabled=${probe.status === 'running'} @click=${() => model.probe()}>Test my server</button>
      ${probe.status === 'running' ? html`<span class="muted probe-running">Asking the model… (a local model may take a minute)</span><button class="secondary" @click=${() => model.cancel()}>Cancel</button>` : nothing}</div>
    ${probe.error ? html`<p class="error probe-error">${probe.error}</p>` : nothing}
    ${probe.result ? probeResult(probe.result, setting, model) : nothing}`;
}

function probeResult(result: TesterProbe, setting: string | undefined, model: TesterModel) {
  const suggestion = result.suggestion;
  return html`<div class="probe-result">
    <p><span class="verdict" data-verdict=${result.verdict}>${verdictText(result.verdict)}</span> · ${result.model} at ${result.endpoint}</p>
    <p class="probe-summary">${result.summary}</p>
    ${
      suggestion && suggestion !== setting
        ? html`<div class="row"><button class="use-protocol" @click=${() => model.useProtocol(suggestion)}>Set codewiki.agent.toolProtocol to "${suggestion}"</button>
          <span class="muted">now "${setting ?? 'auto'}"</span></div>`
        : suggestion
          ? html`<p class="muted">codewiki.agent.toolProtocol is already "${setting}".</p>`
          : nothing
    }
    ${result.attempts.map(attemptDetails)}
  </div>`;
}

function attemptDetails(attempt: TesterProbeAttempt) {
  return html`<details class="attempt" data-protocol=${attempt.protocol}>
    <summary><span class=${attempt.works ? 'ok' : 'bad'}>${attempt.works ? '✓' : '✗'}</span> ${attempt.protocol === 'native' ? 'Native tool calls' : 'Text protocol'}: ${attempt.detail}</summary>
    ${attempt.exchanges.map((exchange) => html`<pre class="exchange">${exchange}</pre>`)}
    ${attempt.answer ? html`<p class="muted">The model's answer:</p><pre>${attempt.answer}</pre>` : nothing}
  </details>`;
}

function verdictText(verdict: TesterProbe['verdict']): string {
  return {
    both: 'Native calls and the text protocol work',
    native: 'Native tool calls work',
    text: 'Only the text protocol works',
    neither: 'Neither protocol worked',
  }[verdict];
}
