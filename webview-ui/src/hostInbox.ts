import type { HostToWebview } from '../../src/shared/protocol';
import type { Actions } from './actions';
import { applyHostMessage } from './hostMessages';
import type { Store } from './state';
import type { StreamBuffer } from './streamBuffer';

/**
 * Where every host message lands: a reply settles the request that waits for it (HostRequests); anything
 * else changes the state. The page and the tests route messages the same way through here.
 */
export function receiveHostMessage(actions: Actions, store: Store, stream: StreamBuffer, message: HostToWebview): void {
  if (actions.requests.settle(message)) return;
  applyHostMessage(store, stream, message);
}
