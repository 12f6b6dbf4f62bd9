import type { HostToTester, TesterToHost } from '../../../src/shared/toolTesterProtocol';
import { vsCodeHost } from '../hostApi';
import type { CwToolTester } from './cw-tool-tester';
import './cw-tool-tester';
import { TesterModel } from './testerModel';
import { loadCodiconFont } from '../codiconFont';

const HOST_TYPES = new Set<HostToTester['type']>(['tester/state', 'tester/parsed', 'tester/ran', 'tester/probe', 'tester/error']);

/** Entry point of the Tool Tester page: wires the host API and the model, then asks for the state. */
function start(): void {
  const host = vsCodeHost<TesterToHost>();
  const model = new TesterModel(host);
  const page = document.createElement('cw-tool-tester') as CwToolTester;
  page.model = model;
  page.view = model.view;
  model.subscribe((view) => (page.view = view));
  window.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as HostToTester | undefined;
    if (message && HOST_TYPES.has(message.type)) model.receive(message);
  });
  loadCodiconFont();
  document.body.append(page);
  host.postMessage({ type: 'tester/ready' });
}

start();
