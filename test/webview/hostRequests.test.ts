import { strict as assert } from 'node:assert';
import { HostRequests } from '../../webview-ui/src/hostRequests';

type Out = { type: 'ask'; requestId: string; q: string };
type In = { type: 'answer'; requestId: string; a: string } | { type: 'failed'; requestId?: string; message: string } | { type: 'state'; requestId?: undefined };

/** The webview's one request/reply helper: a reply settles the request whose id it echoes, and nothing else. */
describe('HostRequests (no DOM)', () => {
  const setup = () => {
    const posted: Out[] = [];
    return { posted, requests: new HostRequests<Out, In>((m) => posted.push(m)) };
  };

  it('posts the message with a fresh id and settles with the reply that echoes it; other messages are not replies', async () => {
    const { posted, requests } = setup();
    const first = requests.request<In>({ type: 'ask', q: 'one' });
    const second = requests.request<In>({ type: 'ask', q: 'two' });
    assert.notEqual(posted[0]!.requestId, posted[1]!.requestId);
    assert.equal(requests.settle({ type: 'state' }), false);
    assert.equal(requests.settle({ type: 'answer', requestId: posted[1]!.requestId, a: 'B' }), true);
    assert.equal(requests.settle({ type: 'failed', requestId: posted[0]!.requestId, message: 'no' }), true, 'an error travels back as the reply');
    assert.deepEqual(await first, { type: 'failed', requestId: posted[0]!.requestId, message: 'no' });
    assert.deepEqual(await second, { type: 'answer', requestId: posted[1]!.requestId, a: 'B' });
    assert.equal(requests.settle({ type: 'answer', requestId: posted[1]!.requestId, a: 'again' }), false, 'a request settles once');
  });

  it('a newer request on the same channel supersedes the older one: it settles with undefined and its late reply is dropped', async () => {
    const { posted, requests } = setup();
    const older = requests.request<In>({ type: 'ask', q: 's' }, { channel: 'suggest' });
    const newer = requests.request<In>({ type: 'ask', q: 'sr' }, { channel: 'suggest' });
    assert.equal(await older, undefined);
    assert.equal(requests.settle({ type: 'answer', requestId: posted[0]!.requestId, a: 'stale' }), false);
    requests.settle({ type: 'answer', requestId: posted[1]!.requestId, a: 'fresh' });
    assert.equal(((await newer) as { a: string }).a, 'fresh');
  });

  it('cancel and timeout settle with undefined; a reply after either is dropped', async () => {
    const { posted, requests } = setup();
    const cancelled = requests.request<In>({ type: 'ask', q: 'x' }, { channel: 'popup' });
    requests.cancel('popup');
    assert.equal(await cancelled, undefined);
    const timed = requests.request<In>({ type: 'ask', q: 'y' }, { timeoutMs: 5 });
    assert.equal(await timed, undefined);
    assert.equal(requests.settle({ type: 'answer', requestId: posted[1]!.requestId, a: 'late' }), false);
  });
});
