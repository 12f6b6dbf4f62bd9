/**
 * An icon font must be declared by the page: an @font-face inside shadow DOM is ignored. The stylesheet ships next
 * to the page's script, so its address follows from the script's own (`document.currentScript`, which is only set
 * while the script first runs: call this from the entry's start, not later).
 */
export function loadCodiconFont(): void {
  if (document.querySelector('link[href*="codicon.css"]')) return;
  const script = document.currentScript as HTMLScriptElement | null;
  if (!script?.src) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('codicon.css', script.src).href;
  document.head.append(link);
}
