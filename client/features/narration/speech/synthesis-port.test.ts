// The port over window.speechSynthesis, against a stand-in for the browser's objects: absent
// synthesis, voices and 'voiceschanged', utterance settings, end/error reported once, and a
// cancel that also lifts a pause (Chrome keeps a cancelled synthesis paused otherwise).
import { describe, expect, it, vi } from 'vitest';
import { createBrowserSynthesisPort } from './synthesis-port';
import { createBrowserReading } from './browser-reading';
import { FakeSynthesisPort } from '../testing/fakes';

class StubUtterance {
  text: string;
  voice: { name: string; lang: string } | null = null;
  lang = '';
  rate = 1;
  pitch = 1;
  volume = 1;
  onend: (() => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(text: string) {
    this.text = text;
  }
}

function stubWindow() {
  const voices = [
    { name: 'Alice', lang: 'en-GB' },
    { name: 'Amelie', lang: 'fr-FR' },
  ];
  const target = new EventTarget();
  const synth = {
    paused: false,
    spoken: [] as StubUtterance[],
    getVoices: vi.fn(() => voices),
    speak: vi.fn((u: StubUtterance) => synth.spoken.push(u)),
    pause: vi.fn(() => (synth.paused = true)),
    resume: vi.fn(() => (synth.paused = false)),
    cancel: vi.fn(),
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    dispatchEvent: target.dispatchEvent.bind(target),
  };
  const win = { speechSynthesis: synth, SpeechSynthesisUtterance: StubUtterance } as unknown as Parameters<
    typeof createBrowserSynthesisPort
  >[0];
  return { win, synth };
}

const OPTIONS = { voiceName: 'Alice', lang: 'en-US', rate: 0.9, pitch: 1, volume: 1 };

describe('createBrowserSynthesisPort', () => {
  it('is null where the browser has no speech synthesis', () => {
    expect(createBrowserSynthesisPort({})).toBeNull();
    expect(createBrowserSynthesisPort(undefined)).toBeNull();
    // jsdom has none either.
    expect(createBrowserSynthesisPort()).toBeNull();
  });

  it("lists the browser's voices and hears 'voiceschanged'", () => {
    const { win, synth } = stubWindow();
    const port = createBrowserSynthesisPort(win);
    expect(port?.getVoices()).toEqual([
      { name: 'Alice', lang: 'en-GB' },
      { name: 'Amelie', lang: 'fr-FR' },
    ]);
    const listener = vi.fn();
    const off = port?.onVoicesChanged(listener);
    synth.dispatchEvent(new Event('voiceschanged'));
    off?.();
    synth.dispatchEvent(new Event('voiceschanged'));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('speaks with the named voice, its language, rate, pitch and volume, and reports the end once', () => {
    const { win, synth } = stubWindow();
    const port = createBrowserSynthesisPort(win);
    const onEnd = vi.fn();
    const onError = vi.fn();
    port?.speak('Hello there.', OPTIONS, { onEnd, onError });
    const [utterance] = synth.spoken;
    expect(utterance).toMatchObject({
      text: 'Hello there.',
      voice: { name: 'Alice', lang: 'en-GB' },
      lang: 'en-GB',
      rate: 0.9,
      pitch: 1,
      volume: 1,
    });
    utterance.onend?.();
    utterance.onerror?.({ error: 'interrupted' });
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
  });

  it("keeps the browser's default voice for an unknown name, with the language asked for", () => {
    const { win, synth } = stubWindow();
    const port = createBrowserSynthesisPort(win);
    const onError = vi.fn();
    port?.speak('Hi.', { ...OPTIONS, voiceName: 'Gone' }, { onEnd: vi.fn(), onError });
    expect(synth.spoken[0]).toMatchObject({ voice: null, lang: 'en-US' });
    synth.spoken[0].onerror?.({ error: 'synthesis-failed' });
    expect(onError).toHaveBeenCalledWith('synthesis-failed');
  });

  it('cancel also resumes a paused synthesis, so the next utterance is heard', () => {
    const { win, synth } = stubWindow();
    const port = createBrowserSynthesisPort(win);
    port?.pause();
    expect(synth.paused).toBe(true);
    port?.cancel();
    expect(synth.cancel).toHaveBeenCalledTimes(1);
    expect(synth.paused).toBe(false);
  });
});

describe('createBrowserReading', () => {
  it('ends at once for an empty reply, and a stopped reading reports nothing', () => {
    const port = new FakeSynthesisPort();
    const onDone = vi.fn();
    const onError = vi.fn();
    createBrowserReading(port, OPTIONS, { onDone, onError }).finish('   ');
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(port.spoken).toHaveLength(0);

    const reading = createBrowserReading(port, OPTIONS, { onDone, onError });
    reading.finish('One. Two.');
    reading.stop();
    expect(port.cancels).toBe(1);
    expect(onDone).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
    reading.push('One. Two. Three. Four');
    expect(port.texts).toEqual(['One.']);
  });
});
