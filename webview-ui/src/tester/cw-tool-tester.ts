import { html, nothing } from 'lit';
import { CwElement, icon } from '../components/cwElement';
import { kindBadgeStyles } from '../components/kindBadge';
import { baseStyles } from '../styles';
import { manualSection, probeSection } from './testerCalls';
import type { TesterModel, TesterView } from './testerModel';
import { testerStyles } from './testerStyles';
import { previewSection, toolsSection } from './testerTools';

/** CodeWiki: Tool Tester (seed 004): the tools, what the model is told, a call tried by hand, and a probe of the server. */
export class CwToolTester extends CwElement {
  static override properties = { view: { attribute: false } };
  static override styles = [baseStyles, kindBadgeStyles, testerStyles];

  declare view: TesterView;
  model!: TesterModel;

  override render() {
    const { state } = this.view;
    return html`<h1>${icon('beaker')} Tool Tester</h1>
      ${
        state
          ? html`<p class="summary muted"><span class="model">Model: ${state.model}</span><span class="protocol-setting">codewiki.agent.toolProtocol: ${state.protocolSetting}</span></p>`
          : html`<p class="muted">Loading…</p>`
      }
      ${
        state
          ? html`<section class="tools"><h2>Tools</h2>${toolsSection(state, this.model)}</section>
            <section class="preview"><h2>Prompt preview</h2>${previewSection(this.view, this.model)}</section>`
          : nothing
      }
      <section class="manual"><h2>Try a call</h2>${manualSection(this.view, this.model)}</section>
      <section class="probe-section"><h2>Test my server</h2>${probeSection(this.view, this.model)}</section>`;
  }
}

customElements.define('cw-tool-tester', CwToolTester);
