// The picture poller against a scripted GET …/message/{id}/image on fake timers: checked at once and
// then every 2 s; 404s until ready; the 30-attempt timeout; a 422's reason; three failed checks;
// and a picture dropped from the list stops being polled.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { createPicturePoller } from './picture-poller';

const READY = {
  image: '/api/images/abc.webp',
  thumbnail: '/api/images/abc.thumb.webp',
  alt: 'A lighthouse in a storm',
  width: 1024,
  height: 576,
};
const pending = () =>
  jsonResponse({ message: 'The picture is not ready yet.', code: 'IMAGE_PENDING' }, { status: 404 });

function setup() {
  const onReady = vi.fn();
  const onFailed = vi.fn();
  const onStalled = vi.fn();
  const poller = createPicturePoller({ onReady, onFailed, onStalled });
  return { poller, onReady, onFailed, onStalled };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => vi.useRealTimers());

describe('createPicturePoller', () => {
  it('checks at once, then every 2 s while the answer is 404, and hands over the ready picture', async () => {
    let calls = 0;
    const fetchMock = mockFetch(() => (++calls < 3 ? pending() : jsonResponse(READY)));
    const { poller, onReady, onFailed } = setup();
    poller.sync([8]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock.requests.map((r) => r.url)).toEqual(['/api/story/message/8/image']);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchMock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock.requests).toHaveLength(3);
    expect(onReady).toHaveBeenCalledWith(8, {
      status: 'ready',
      url: READY.image,
      thumbnail: READY.thumbnail,
      alt: READY.alt,
      width: 1024,
      height: 576,
    });
    expect(onFailed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock.requests).toHaveLength(3);
    expect(poller.polling()).toEqual([]);
  });

  it('counts a picture-less 200 as not ready, and times out after 30 attempts', async () => {
    let calls = 0;
    const fetchMock = mockFetch(() => (++calls % 2 === 0 ? jsonResponse({ image: null }) : pending()));
    const { poller, onFailed, onReady } = setup();
    poller.sync([8]);
    await vi.advanceTimersByTimeAsync(29 * 2000 - 1);
    expect(fetchMock.requests).toHaveLength(29);
    expect(onFailed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock.requests).toHaveLength(30);
    expect(onFailed).toHaveBeenCalledWith(8, 'Image generation timed out after multiple attempts');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock.requests).toHaveLength(30);
    expect(onReady).not.toHaveBeenCalled();
  });

  it("fails at once with a 422's reason", async () => {
    mockFetch(() =>
      jsonResponse({ message: 'The painter is unavailable right now.', code: 'IMAGE_FAILED' }, { status: 422 }),
    );
    const { poller, onFailed } = setup();
    poller.sync([8]);
    await vi.advanceTimersByTimeAsync(0);
    expect(onFailed).toHaveBeenCalledWith(8, 'The painter is unavailable right now.');
  });

  it('gives up as stalled after three checks that fail outright', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({ message: 'Server is down', code: 'INTERNAL_ERROR' }, { status: 500 }),
    );
    const { poller, onStalled, onFailed } = setup();
    poller.sync([8]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(fetchMock.requests).toHaveLength(3);
    expect(onStalled).toHaveBeenCalledWith(8, 'Server is down');
    expect(onFailed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchMock.requests).toHaveLength(3);
  });

  it('stops polling a picture no longer listed, and polls a settled one again only after it left the list', async () => {
    const fetchMock = mockFetch(({ url }) => (url.includes('/9/') ? jsonResponse(READY) : pending()));
    const { poller, onReady } = setup();
    poller.sync([8, 9]);
    await vi.advanceTimersByTimeAsync(0);
    expect(onReady).toHaveBeenCalledTimes(1);
    // 9 is settled but its new state has not reached the list yet: it is not polled again.
    poller.sync([8, 9]);
    poller.sync([9]);
    await vi.advanceTimersByTimeAsync(6000);
    expect(fetchMock.requests.filter((r) => r.url.includes('/8/'))).toHaveLength(1);
    expect(fetchMock.requests.filter((r) => r.url.includes('/9/'))).toHaveLength(1);
    // Asked for again (a Retry): it left the list and came back.
    poller.sync([]);
    poller.sync([9]);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock.requests.filter((r) => r.url.includes('/9/'))).toHaveLength(2);
    poller.stop();
  });
});

describe('checks in flight', () => {
  it('never has more than two status checks open at once, however many pictures are pending', async () => {
    let open = 0;
    let most = 0;
    const releases: Array<() => void> = [];
    const poller = createPicturePoller({
      onReady: () => {},
      onFailed: () => {},
      onStalled: () => {},
      check: () =>
        new Promise((resolve) => {
          open += 1;
          most = Math.max(most, open);
          releases.push(() => {
            open -= 1;
            resolve({ status: 'pending' });
          });
        }),
    });
    poller.sync([1, 2, 3, 4, 5]);
    for (let round = 0; round < 5; round += 1) {
      await Promise.resolve();
      await Promise.resolve();
      releases.splice(0).forEach((release) => release());
      await Promise.resolve();
    }
    expect(most).toBe(2);
    poller.stop();
  });
});
