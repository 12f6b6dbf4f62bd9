import { html } from 'lit';
import type { CodeAction } from '../actions';
import { appChrome } from '../morphDom';
import type { CodeActionDetail } from './cw-app';
import { CwElement, icon } from './cwElement';

/**
 * Wraps a code fence from rendered Markdown with Copy, Insert at cursor and New file. It has no
 * reference to the app, so it reports with a composed `cw-code-action` event that crosses the shadow
 * roots up to `cw-app`.
 *
 * No shadow root: its toolbar is a light-DOM `.code-bar` in front of the `<pre>`, styled by the
 * message (`markdownStyles`). Chromium's style pass visits every shadow root of the page on each
 * frame, so with one per code block a frame's style work grew with the answer (1.0 to 3.5 ms a frame
 * while a 1,600-fence answer streamed). The bar is app chrome (`appChrome`): morphing the block as
 * its fence grows leaves it alone, and the sanitised Markdown cannot produce it.
 */
export class CwCodeBlock extends CwElement {
  /** `data-lang` is observed: a block still streaming keeps this element while its info line arrives. */
  static override properties = { language: { attribute: 'data-lang' }, copied: { state: true } };

  declare language: string | null;
  declare copied: boolean;

  protected override createRenderRoot(): HTMLElement {
    const bar = document.createElement('div');
    bar.className = 'code-bar';
    appChrome.add(bar);
    this.prepend(bar);
    return bar;
  }

  override render() {
    return html`<span class="lang">${this.language ?? ''}</span>
      <button class="icon" data-action="copy" title="Copy" aria-label="Copy code" @click=${() => this.emit('copy')}>${icon(this.copied ? 'check' : 'copy')}</button>
      <button class="icon" data-action="insert" title="Insert at cursor" aria-label="Insert code at cursor" @click=${() => this.emit('insert')}>${icon('insert')}</button>
      <button class="icon" data-action="newFile" title="New file" aria-label="Open code in a new file" @click=${() => this.emit('newFile')}>${icon('new-file')}</button>`;
  }

  private emit(action: CodeAction): void {
    const text = this.querySelector('code')?.textContent ?? '';
    const language = this.language || undefined;
    this.dispatchEvent(new CustomEvent<CodeActionDetail>('cw-code-action', { detail: { action, text, language }, bubbles: true, composed: true }));
    if (action === 'copy') {
      this.copied = true;
      setTimeout(() => (this.copied = false), 1500);
    }
  }
}

customElements.define('cw-code-block', CwCodeBlock);
