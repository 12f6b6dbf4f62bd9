import { html, nothing } from 'lit';
import type { WikiPageEntry, WikiStateMessage, WikiToHost } from '../../../src/shared/wikiProtocol';
import { CwElement, icon } from '../components/cwElement';
import type { HostApi } from '../hostApi';
import { baseStyles, markdownStyles } from '../styles';
import { drawDiagramsIn } from './wikiDiagrams';
import { renderWikiPage } from './wikiMarkdown';
import { wikiStyles } from './wikiStyles';

/**
 * CodeWiki: Wiki, the pages of `.codewiki/wiki/`: a toolbar (Generate, or progress and Stop while
 * generation runs), the list of pages and the page shown. The host owns everything; the page only
 * shows the state it is sent and reports what the user clicked, links included (`wiki/openLink`).
 */
export class CwWiki extends CwElement {
  static override properties = { state: { attribute: false } };
  static override styles = [baseStyles, markdownStyles, wikiStyles];

  declare state: WikiStateMessage | undefined;
  host!: HostApi<WikiToHost>;
  /** The page whose Markdown is in the article, so a new state with the same page does not redraw it. */
  private shown: { path: string; markdown: string } | undefined;
  private showing = 0;

  override render() {
    const state = this.state;
    return html`<header class="toolbar wiki-toolbar">
        <h1>${icon('book')} Wiki</h1>
        ${this.generationControls(state)}
      </header>
      ${state?.notice ? html`<p class="notice" role="status">${state.notice}</p>` : nothing}
      <div class="layout">
        ${state && state.pages.length > 0 ? this.pageList(state) : nothing}
        <article class="markdown page-body" @click=${this.onArticleClick} @keydown=${this.onArticleKey}></article>
      </div>`;
  }

  private generationControls(state: WikiStateMessage | undefined) {
    const progress = state?.generating;
    if (progress)
      return html`<div class="progress" role="status">
          <progress max=${Math.max(progress.total, 1)} value=${Math.min(progress.done, progress.total)}></progress>
          <span class="progress-label">${progress.label} (${progress.done}/${progress.total})</span>
        </div>
        <button class="stop secondary" @click=${() => this.post({ type: 'wiki/stop' })}>${icon('debug-stop')} Stop</button>`;
    const label = state && state.pages.length > 0 ? 'Regenerate' : 'Generate';
    return html`<button class="generate" ?disabled=${!state} @click=${() => this.post({ type: 'wiki/generate' })}>${icon('refresh')} ${label}</button>`;
  }

  private pageList(state: WikiStateMessage) {
    // The index first, then any other top-level page, then the modules under their own heading.
    const isModule = (page: WikiPageEntry) => page.path.startsWith('modules/');
    const top = state.pages.filter((page) => !isModule(page)).sort((a, b) => Number(b.path === 'index.md') - Number(a.path === 'index.md'));
    const modules = state.pages.filter(isModule);
    const current = state.current?.path;
    const entry = (page: WikiPageEntry) =>
      html`<li>
        <button class="page-entry" data-path=${page.path} aria-current=${page.path === current ? 'page' : 'false'} title=${page.path} @click=${() => this.post({ type: 'wiki/showPage', path: page.path })}>
          <span class="page-title">${page.title}</span>
          ${page.stale ? html`<span class="badge stale" title="The code changed since this page was written">stale</span>` : nothing}
        </button>
      </li>`;
    return html`<nav class="pages" aria-label="Wiki pages">
      <ul>${top.map(entry)}</ul>
      ${modules.length > 0 ? html`<h2>Modules</h2><ul>${modules.map(entry)}</ul>` : nothing}
    </nav>`;
  }

  protected override updated(changed: Map<PropertyKey, unknown>): void {
    super.updated(changed);
    const current = this.state?.current;
    if (current?.path === this.shown?.path && current?.markdown === this.shown?.markdown) return;
    this.showPage(current);
  }

  /** Draws the page again, e.g. its diagrams in the colours of a new theme. */
  redraw(): void {
    this.shown = undefined;
    this.requestUpdate();
  }

  /** The text at once; the diagrams after it (`wikiDiagrams.ts`), abandoned if another page comes. */
  private showPage(page: { path: string; markdown: string } | undefined): void {
    const article = this.renderRoot.querySelector<HTMLElement>('article.page-body');
    if (!article) return;
    const samePath = page?.path === this.shown?.path;
    this.shown = page;
    const showing = ++this.showing;
    article.replaceChildren(page ? renderWikiPage(page.markdown) : '');
    article.dataset.path = page?.path ?? '';
    if (!samePath) window.scrollTo(0, 0);
    if (page) void drawDiagramsIn(article, () => showing === this.showing);
  }

  private onArticleClick = (event: MouseEvent) => {
    const link = linkOf(event);
    if (!link) return;
    // Never the webview's own navigation, whatever the link: the host decides what a link opens.
    event.preventDefault();
    this.openLink(link);
  };

  private onArticleKey = (event: KeyboardEvent) => {
    const link = event.key === 'Enter' ? linkOf(event) : undefined;
    if (!link) return;
    event.preventDefault();
    this.openLink(link);
  };

  private openLink(link: HTMLElement): void {
    const href = link.dataset.href;
    const page = this.shown?.path;
    if (href !== undefined && page !== undefined) this.post({ type: 'wiki/openLink', page, href });
  }

  private post(message: WikiToHost): void {
    this.host.postMessage(message);
  }
}

function linkOf(event: Event): HTMLElement | undefined {
  return ((event.target as Element | null)?.closest?.('a') as HTMLElement | null) ?? undefined;
}

customElements.define('cw-wiki', CwWiki);
