// The server-voice player with a fake fetch and a fake Audio element: parts played in order through
// one element, the next part fetched while the current one plays, object URLs revoked, pause /
// resume / stop on the element, and failures (fetch, decode, play) reported once.
import { describe, expect, it, vi } from 'vitest';
import { deferred, FakeAudio } from '../testing/fakes';
import { playServerVoice, type SpeechPart } from './server-voice-player';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup(parts = 3) {
  const audio = new FakeAudio();
  const pending = new Map<number, ReturnType<typeof deferred<SpeechPart>>>();
  const signals: AbortSignal[] = [];
  const fetchPart = vi.fn((part: number, signal: AbortSignal) => {
    signals.push(signal);
    const d = deferred<SpeechPart>();
    pending.set(part, d);
    return d.promise;
  });
  const answer = (part: number) =>
    pending.get(part)?.resolve({ audio: new Blob([`part ${part}`], { type: 'audio/mpeg' }), parts });
  let counter = 0;
  const created: string[] = [];
  const revoked: string[] = [];
  const urls = {
    create: () => {
      counter += 1;
      const url = `blob:part-${counter}`;
      created.push(url);
      return url;
    },
    revoke: (url: string) => revoked.push(url),
  };
  const onDone = vi.fn();
  const onError = vi.fn();
  return {
    audio,
    fetchPart,
    pending,
    answer,
    signals,
    urls,
    created,
    revoked,
    onDone,
    onError,
    start: () => playServerVoice(fetchPart, audio, { onDone, onError }, urls),
  };
}

describe('playServerVoice', () => {
  it('plays the parts in order through one element, fetching the next while one plays, and revokes each URL', async () => {
    const t = setup(3);
    t.start();
    expect(t.fetchPart.mock.calls.map((c) => c[0])).toEqual([0]);
    t.answer(0);
    await flush();
    expect(t.audio.src).toBe('blob:part-1');
    expect(t.audio.playing).toBe(true);
    // Part 1 is on its way while part 0 plays.
    expect(t.fetchPart.mock.calls.map((c) => c[0])).toEqual([0, 1]);
    t.answer(1);
    await flush();
    expect(t.audio.src).toBe('blob:part-1');

    t.audio.emit('ended');
    await flush();
    expect(t.revoked).toEqual(['blob:part-1']);
    expect(t.audio.src).toBe('blob:part-2');
    expect(t.fetchPart.mock.calls.map((c) => c[0])).toEqual([0, 1, 2]);
    t.audio.emit('ended');
    await flush();
    // Part 2 was not ready yet: it plays as soon as it arrives.
    expect(t.revoked).toEqual(['blob:part-1', 'blob:part-2']);
    expect(t.audio.sources).toEqual(['blob:part-1', 'blob:part-2']);
    t.answer(2);
    await flush();
    expect(t.audio.src).toBe('blob:part-3');
    expect(t.audio.sources).toEqual(['blob:part-1', 'blob:part-2', 'blob:part-3']);
    t.audio.emit('ended');
    await flush();
    expect(t.onDone).toHaveBeenCalledTimes(1);
    expect(t.onError).not.toHaveBeenCalled();
    expect(t.revoked).toEqual(t.created);
    expect(t.audio.src).toBe('');
    expect(t.audio.listenerCount()).toBe(0);
    expect(t.fetchPart).toHaveBeenCalledTimes(3);
  });

  it('plays a one-part reply and is done', async () => {
    const t = setup(1);
    t.start();
    t.answer(0);
    await flush();
    expect(t.fetchPart).toHaveBeenCalledTimes(1);
    t.audio.emit('ended');
    expect(t.onDone).toHaveBeenCalledTimes(1);
  });

  it('pause and resume act on the element', async () => {
    const t = setup(2);
    const playback = t.start();
    t.answer(0);
    await flush();
    playback.pause();
    expect(t.audio.pauseCalls).toBe(1);
    expect(t.audio.playing).toBe(false);
    playback.pause();
    expect(t.audio.pauseCalls).toBe(1);
    playback.resume();
    expect(t.audio.playing).toBe(true);
    expect(t.audio.playCalls).toBe(2);
  });

  it('paused before the first part arrives: it waits on the element until resumed', async () => {
    const t = setup(2);
    const playback = t.start();
    playback.pause();
    t.answer(0);
    await flush();
    expect(t.audio.src).toBe('blob:part-1');
    expect(t.audio.playCalls).toBe(0);
    playback.resume();
    expect(t.audio.playCalls).toBe(1);
  });

  it('stop aborts the fetches, silences and empties the element, revokes, and reports nothing', async () => {
    const t = setup(3);
    const playback = t.start();
    t.answer(0);
    await flush();
    playback.stop();
    expect(t.signals.every((s) => s.aborted)).toBe(true);
    expect(t.audio.playing).toBe(false);
    expect(t.audio.src).toBe('');
    expect(t.audio.loads).toBe(1);
    expect(t.revoked).toEqual(['blob:part-1']);
    t.pending.get(1)?.reject(new DOMException('aborted', 'AbortError'));
    t.audio.emit('ended');
    await flush();
    expect(t.onDone).not.toHaveBeenCalled();
    expect(t.onError).not.toHaveBeenCalled();
  });

  it('a part that cannot be fetched stops the playback with an error', async () => {
    const t = setup(3);
    t.start();
    t.answer(0);
    await flush();
    const error = new Error('503');
    t.pending.get(1)?.reject(error);
    await flush();
    // The failed prefetch is reported when its turn comes.
    expect(t.onError).not.toHaveBeenCalled();
    t.audio.emit('ended');
    await flush();
    expect(t.onError).toHaveBeenCalledWith(error);
    expect(t.audio.src).toBe('');
    expect(t.revoked).toEqual(['blob:part-1']);
  });

  it('a part the element cannot decode stops the playback with an error, once', async () => {
    const t = setup(2);
    t.start();
    t.answer(0);
    await flush();
    t.audio.emit('error');
    t.audio.emit('error');
    expect(t.onError).toHaveBeenCalledTimes(1);
    expect(t.signals[0].aborted).toBe(true);
  });

  it('a refused play() is an error; an interrupted one (AbortError) is not', async () => {
    const t = setup(1);
    t.audio.playError = new DOMException('interrupted by pause', 'AbortError');
    t.start();
    t.answer(0);
    await flush();
    expect(t.onError).not.toHaveBeenCalled();

    const u = setup(1);
    const refused = new DOMException('no gesture', 'NotAllowedError');
    u.audio.playError = refused;
    u.start();
    u.answer(0);
    await flush();
    expect(u.onError).toHaveBeenCalledWith(refused);
  });
});
