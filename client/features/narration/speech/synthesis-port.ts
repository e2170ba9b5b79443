// A small port over the browser's speech synthesis (window.speechSynthesis and
// SpeechSynthesisUtterance), so the narration queue is tested with a fake and the browsers'
// differences stay in one place:
// - Chrome lists no voices until 'voiceschanged'; Safari lists them at once and may never fire it.
// - Chrome drops an utterance that nothing references before it ends (no 'end' ever fires): the
//   port keeps the one being spoken.
// - Chrome leaves the synthesis paused after cancel() if it was paused, and then speaks nothing:
//   cancel() resumes it too.
// - cancel() reports the cut utterances as errors 'interrupted' / 'canceled' (Chrome) or as a
//   plain 'end' (Safari): callers tell their own cancel apart by their own state, never by
//   speechSynthesis.speaking.

export interface SynthesisVoice {
  name: string;
  lang: string;
}

export interface UtteranceOptions {
  /** A voice name from getVoices(); null or an unknown name leaves the browser's default voice. */
  voiceName: string | null;
  lang: string;
  rate: number;
  pitch: number;
  volume: number;
}

export interface UtteranceCallbacks {
  onEnd(): void;
  /** The SpeechSynthesisErrorEvent's `error` ('interrupted', 'canceled', 'not-allowed', 'synthesis-failed', …). */
  onError(error: string): void;
}

export interface SpeechSynthesisPort {
  getVoices(): SynthesisVoice[];
  /** Calls `listener` whenever the browser's list of voices changes; answers the unsubscribe. */
  onVoicesChanged(listener: () => void): () => void;
  speak(text: string, options: UtteranceOptions, callbacks: UtteranceCallbacks): void;
  pause(): void;
  resume(): void;
  cancel(): void;
}

interface SpeechWindow {
  speechSynthesis?: SpeechSynthesis;
  SpeechSynthesisUtterance?: typeof SpeechSynthesisUtterance;
}

/** The browser's synthesis, or null where there is none (old browsers, jsdom, some webviews). */
export function createBrowserSynthesisPort(
  win: SpeechWindow | undefined = typeof window === 'undefined' ? undefined : window,
): SpeechSynthesisPort | null {
  let synth: SpeechSynthesis | undefined;
  let Utterance: typeof SpeechSynthesisUtterance | undefined;
  try {
    synth = win?.speechSynthesis;
    Utterance = win?.SpeechSynthesisUtterance;
  } catch {
    return null;
  }
  if (!synth || typeof Utterance !== 'function') return null;
  const speech = synth;
  const UtteranceClass = Utterance;
  /** Held so Chrome does not collect it (and lose its 'end') while it is spoken. */
  let current: SpeechSynthesisUtterance | null = null;

  const nativeVoices = (): SpeechSynthesisVoice[] => {
    try {
      return speech.getVoices() ?? [];
    } catch {
      return [];
    }
  };

  return {
    getVoices: () => nativeVoices().map((v) => ({ name: v.name, lang: v.lang })),

    onVoicesChanged(listener) {
      speech.addEventListener('voiceschanged', listener);
      return () => speech.removeEventListener('voiceschanged', listener);
    },

    speak(text, options, callbacks) {
      const utterance = new UtteranceClass(text);
      const voice = options.voiceName === null ? undefined : nativeVoices().find((v) => v.name === options.voiceName);
      if (voice) utterance.voice = voice;
      utterance.lang = voice?.lang ?? options.lang;
      utterance.rate = options.rate;
      utterance.pitch = options.pitch;
      utterance.volume = options.volume;
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        if (current === utterance) current = null;
        return true;
      };
      utterance.onend = () => {
        if (settle()) callbacks.onEnd();
      };
      utterance.onerror = (event) => {
        if (settle()) callbacks.onError((event as SpeechSynthesisErrorEvent).error ?? 'synthesis-failed');
      };
      current = utterance;
      speech.speak(utterance);
    },

    pause: () => speech.pause(),
    resume: () => speech.resume(),
    cancel() {
      speech.cancel();
      if (speech.paused) speech.resume();
      current = null;
    },
  };
}
