import type { HostToWiki, WikiToHost } from '../../../src/shared/wikiProtocol';
import { vsCodeHost } from '../hostApi';
import type { CwWiki } from './cw-wiki';
import './cw-wiki';
import { themeOfPage } from './mermaidDiagrams';
import { loadCodiconFont } from '../codiconFont';

/** Entry point of the wiki page: shows each state the host sends and reports the user's clicks. */
function start(): void {
  const host = vsCodeHost<WikiToHost>();
  const page = document.createElement('cw-wiki') as CwWiki;
  page.host = host;
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as HostToWiki | undefined;
    if (message?.type === 'wiki/state' && Array.isArray(message.pages)) page.state = message;
  });
  // However a link got into the page, a click on it never navigates the webview.
  document.addEventListener('click', (event) => {
    if (event.composedPath().some((target) => target instanceof HTMLAnchorElement)) event.preventDefault();
  });
  // Diagrams take the theme's colours when drawn, so a switch to a light or dark theme draws them again.
  let theme = themeOfPage();
  new MutationObserver(() => {
    if (themeOfPage() === theme) return;
    theme = themeOfPage();
    page.redraw();
  }).observe(document.body, { attributes: true, attributeFilter: ['class'] });
  loadCodiconFont();
  document.body.append(page);
  host.postMessage({ type: 'wiki/ready' });
}

start();
