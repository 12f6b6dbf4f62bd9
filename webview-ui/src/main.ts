import { Actions } from './actions';
import type { CwApp } from './components/cw-app';
import './components/cw-app';
import { vsCodeHost } from './hostApi';
import { receiveHostMessage } from './hostInbox';
import { isHostMessage } from './hostMessages';
import { Store } from './state';
import { throttledFrames } from './frameScheduler';
import { StreamBuffer } from './streamBuffer';
import { persistUi, restoreUi } from './uiPersistence';
import { loadCodiconFont } from './codiconFont';

/** Entry point: wires the host API, the store and the app, then tells the host it is ready for `state/init`. */
function start(): void {
  const host = vsCodeHost();
  const store = new Store(restoreUi(host));
  const stream = new StreamBuffer(store, throttledFrames());
  const actions = new Actions(host, store);
  persistUi(host, (listener) => store.subscribe(listener));

  // VS Code delivers host messages as `message` events on the window.
  window.addEventListener('message', (event: MessageEvent) => {
    if (!isHostMessage(event.data)) return;
    receiveHostMessage(actions, store, stream, event.data);
  });

  loadCodiconFont();
  // VS Code's default webview body padding would frame the app; it lays itself out edge to edge.
  document.body.style.padding = '0';
  document.body.style.margin = '0';
  // Ready first: the app may post requests as soon as it renders (e.g. a restored history panel).
  host.postMessage({ type: 'webview/ready' });
  const app = document.createElement('cw-app') as CwApp;
  app.store = store;
  app.actions = actions;
  document.body.append(app);
}

start();
