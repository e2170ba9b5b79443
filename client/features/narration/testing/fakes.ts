// Test fakes for narration: a speech synthesis port that records every utterance and lets the test
// end or fail them, and an Audio element whose events the test fires; and the tab's narrator, for
// the story page's tests. Used by unit tests only (other features' tests reach narration here).
import type { AudioLike } from '../speech/server-voice-player';
import type {
  SpeechSynthesisPort,
  SynthesisVoice,
  UtteranceCallbacks,
  UtteranceOptions,
} from '../speech/synthesis-port';

export { narrator } from '../state/narrator';

export interface FakeUtterance {
  text: string;
  options: UtteranceOptions;
  callbacks: UtteranceCallbacks;
}

export class FakeSynthesisPort implements SpeechSynthesisPort {
  voices: SynthesisVoice[];
  /** Every utterance ever given to speak(), in order. */
  readonly spoken: FakeUtterance[] = [];
  /** Utterances given to speak() and not yet ended, failed or cancelled. */
  readonly active: FakeUtterance[] = [];
  paused = false;
  pauses = 0;
  resumes = 0;
  cancels = 0;
  private readonly listeners = new Set<() => void>();

  constructor(voices: SynthesisVoice[] = []) {
    this.voices = voices;
  }

  get texts(): string[] {
    return this.spoken.map((u) => u.text);
  }

  getVoices(): SynthesisVoice[] {
    return this.voices;
  }

  onVoicesChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Chrome's late voice list: the voices arrive and 'voiceschanged' fires. */
  setVoices(voices: SynthesisVoice[]): void {
    this.voices = voices;
    this.listeners.forEach((listener) => listener());
  }

  speak(text: string, options: UtteranceOptions, callbacks: UtteranceCallbacks): void {
    const utterance = { text, options, callbacks };
    this.spoken.push(utterance);
    this.active.push(utterance);
  }

  /** The utterance being spoken reaches its end. */
  endCurrent(): void {
    const utterance = this.active.shift();
    if (!utterance) throw new Error('nothing is being spoken');
    utterance.callbacks.onEnd();
  }

  /** Ends utterances until none is left (each end may start the next). */
  endAll(limit = 100): void {
    for (let i = 0; i < limit && this.active.length > 0; i += 1) this.endCurrent();
  }

  failCurrent(error: string): void {
    const utterance = this.active.shift();
    if (!utterance) throw new Error('nothing is being spoken');
    utterance.callbacks.onError(error);
  }

  pause(): void {
    this.paused = true;
    this.pauses += 1;
  }

  resume(): void {
    this.paused = false;
    this.resumes += 1;
  }

  /** Like Chrome: every cut utterance reports 'interrupted'. */
  cancel(): void {
    this.cancels += 1;
    this.paused = false;
    const cut = this.active.splice(0);
    cut.forEach((utterance) => utterance.callbacks.onError('interrupted'));
  }
}

type AudioEvent = 'ended' | 'error';

export class FakeAudio implements AudioLike {
  src = '';
  playing = false;
  playCalls = 0;
  pauseCalls = 0;
  loads = 0;
  /** What the next play() does: resolve, or reject with this error. */
  playError: Error | null = null;
  readonly sources: string[] = [];
  private readonly listeners = new Map<AudioEvent, Set<() => void>>();

  play(): Promise<void> {
    this.playCalls += 1;
    if (this.playError) {
      const error = this.playError;
      this.playError = null;
      return Promise.reject(error);
    }
    this.playing = true;
    if (this.src) this.sources.push(this.src);
    return Promise.resolve();
  }

  pause(): void {
    this.pauseCalls += 1;
    this.playing = false;
  }

  load(): void {
    this.loads += 1;
  }

  removeAttribute(name: string): void {
    if (name === 'src') this.src = '';
  }

  addEventListener(type: AudioEvent, listener: () => void): void {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)?.add(listener);
  }

  removeEventListener(type: AudioEvent, listener: () => void): void {
    this.listeners.get(type)?.delete(listener);
  }

  listenerCount(): number {
    let count = 0;
    this.listeners.forEach((set) => (count += set.size));
    return count;
  }

  emit(type: AudioEvent): void {
    if (type === 'ended') this.playing = false;
    [...(this.listeners.get(type) ?? [])].forEach((listener) => listener());
  }
}

/** A promise with its resolve and reject at hand. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
