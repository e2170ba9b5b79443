// The browser's own speech recognition (Chrome's webkitSpeechRecognition, the standard
// SpeechRecognition elsewhere) behind a small port, set up as the product asks: en-US,
// non-continuous, no interim results, one alternative. TypeScript's DOM library does not declare
// the API, so the few members used are declared here.
import { RECOGNITION_SETTINGS } from '../constants';

/** What a recognition session reports: the final text, an error code, and its end (always last). */
export interface RecognitionHandlers {
  onResult(text: string): void;
  /** The SpeechRecognitionErrorEvent's `error`: 'no-speech', 'aborted', 'not-allowed', 'network', … */
  onError(code: string): void;
  onEnd(): void;
}

export interface RecognitionSession {
  /** Stops listening; the result of what was heard still arrives, then the end. */
  stop(): void;
  /** Stops listening and drops what was heard. */
  abort(): void;
}

export interface SpeechRecognizerPort {
  /** Starts listening; throws when the browser refuses to start (recognition.start() throwing). */
  start(handlers: RecognitionHandlers): RecognitionSession;
}

interface RecognitionAlternative {
  transcript: string;
}
interface RecognitionResult {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: RecognitionAlternative;
}
interface RecognitionResultEvent extends Event {
  readonly resultIndex: number;
  readonly results: { readonly length: number; [index: number]: RecognitionResult };
}
interface RecognitionErrorEvent extends Event {
  readonly error: string;
}

/** The members of a SpeechRecognition instance this port uses. */
export interface BrowserSpeechRecognition extends EventTarget {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  start(): void;
  stop(): void;
  abort(): void;
}

export type BrowserSpeechRecognitionConstructor = new () => BrowserSpeechRecognition;

export interface RecognitionWindow {
  SpeechRecognition?: BrowserSpeechRecognitionConstructor;
  webkitSpeechRecognition?: BrowserSpeechRecognitionConstructor;
}

export function findSpeechRecognition(
  win: RecognitionWindow = window as unknown as RecognitionWindow,
): BrowserSpeechRecognitionConstructor | null {
  return win.SpeechRecognition ?? win.webkitSpeechRecognition ?? null;
}

/** The final text of a result event, its results from resultIndex on joined by spaces. */
export function transcriptOf(event: RecognitionResultEvent): string {
  const parts: string[] = [];
  for (let index = event.resultIndex ?? 0; index < event.results.length; index += 1) {
    const result = event.results[index];
    if (result && result.isFinal !== false && result.length > 0) parts.push(result[0].transcript.trim());
  }
  return parts.filter(Boolean).join(' ');
}

/** The browser recogniser, or null where the browser has none. */
export function createBrowserSpeechRecognizer(win?: RecognitionWindow): SpeechRecognizerPort | null {
  const Recognition = findSpeechRecognition(win);
  if (!Recognition) return null;
  return {
    start(handlers) {
      const recognition = new Recognition();
      recognition.lang = RECOGNITION_SETTINGS.lang;
      recognition.continuous = RECOGNITION_SETTINGS.continuous;
      recognition.interimResults = RECOGNITION_SETTINGS.interimResults;
      recognition.maxAlternatives = RECOGNITION_SETTINGS.maxAlternatives;
      let ended = false;
      const onResult = (event: Event) => {
        const text = transcriptOf(event as RecognitionResultEvent);
        if (text) handlers.onResult(text);
      };
      const onError = (event: Event) => handlers.onError((event as RecognitionErrorEvent).error ?? 'unknown');
      const onEnd = () => {
        if (ended) return;
        ended = true;
        recognition.removeEventListener('result', onResult);
        recognition.removeEventListener('error', onError);
        recognition.removeEventListener('end', onEnd);
        handlers.onEnd();
      };
      recognition.addEventListener('result', onResult);
      recognition.addEventListener('error', onError);
      recognition.addEventListener('end', onEnd);
      try {
        recognition.start();
      } catch (error) {
        recognition.removeEventListener('result', onResult);
        recognition.removeEventListener('error', onError);
        recognition.removeEventListener('end', onEnd);
        throw error;
      }
      return {
        stop: () => recognition.stop(),
        abort: () => recognition.abort(),
      };
    },
  };
}
