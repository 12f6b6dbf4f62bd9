import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { TesterState, TesterTool } from '../../../src/shared/toolTesterProtocol';
import type { TesterModel, TesterView } from './testerModel';

/** Every registered tool with its kind, category, whether the agent may call it, its switch and its JSON Schema. */
export function toolsSection(state: TesterState, model: TesterModel) {
  if (state.unavailable) return html`<p class="muted unavailable">${state.unavailable}</p>`;
  return html`${state.toolsEnabled ? nothing : html`<p class="muted">Tools are off (codewiki.tools.enabled): the agent gets none.</p>`}
    <table aria-label="Tools">
      <thead><tr><th>On</th><th>Tool</th><th>Kind</th><th>Category</th><th>Agent-callable</th><th>Schema</th></tr></thead>
      <tbody>${repeat(
        state.tools,
        (tool) => tool.name,
        (tool) => toolRow(tool, model),
      )}</tbody>
    </table>`;
}

function toolRow(tool: TesterTool, model: TesterModel) {
  return html`<tr data-tool=${tool.name}>
    <td><input type="checkbox" role="switch" aria-label="Offer ${tool.displayName} to the agent" .checked=${tool.agentCallable && tool.enabled} ?disabled=${!tool.agentCallable}
      @change=${(e: Event) => model.toggleTool(tool.name, (e.target as HTMLInputElement).checked)} /></td>
    <td class="name"><div>${tool.displayName}</div><code class="muted">${tool.name}</code><div class="muted description">${tool.description}</div></td>
    <td><span class="badge kind" data-kind=${tool.kind}>${tool.kind}</span></td>
    <td>${tool.category}</td>
    <td class="callable">${tool.agentCallable ? 'yes' : 'no (workflow only)'}</td>
    <td><details><summary>JSON Schema</summary><pre class="schema">${JSON.stringify(tool.schema, null, 2)}</pre></details></td>
  </tr>`;
}

/** The exact system prompt and `tools` payload the agent would send now, natively or under the text protocol. */
export function previewSection(view: TesterView, model: TesterModel) {
  const state = view.state!;
  const preview = state.previews.find((p) => p.protocol === view.previewProtocol);
  const tab = (protocol: 'native' | 'text', label: string) =>
    html`<button class="secondary" data-protocol=${protocol} aria-pressed=${String(view.previewProtocol === protocol)} @click=${() => model.showPreview(protocol)}>${label}</button>`;
  return html`<div class="tabs" role="group" aria-label="Protocol">${tab('native', 'Native tool calls')}${tab('text', 'Text protocol')}</div>
    ${
      !preview
        ? html`<p class="muted">No preview: ${state.unavailable ?? 'no tools are available.'}</p>`
        : html`<p class="muted">Model ${state.model} · guidance for the <strong>${preview.family}</strong> family · ${preview.toolNames.length} tools offered${preview.toolNames.length ? `: ${preview.toolNames.join(', ')}` : ''}</p>
          <h3>System prompt</h3>
          <pre class="system-prompt">${preview.systemPrompt}</pre>
          <h3>The request's <code>tools</code></h3>
          ${
            preview.toolsJson
              ? html`<pre class="tools-json">${preview.toolsJson}</pre>`
              : html`<p class="muted tools-json-none">None: under the text protocol the tools are described in the system prompt above.</p>`
          }`
    }`;
}
