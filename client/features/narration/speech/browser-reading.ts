// One reply read aloud by the browser, sentence by sentence: one utterance per
// sentence of shared/speech/sentences.ts, which also keeps each utterance short enough for Chrome,
// whose engine cuts an utterance after about 15 seconds. While the reply is written, push() gives it
// the text so far and each sentence is spoken as soon as it is complete; finish() gives the whole
// reply once it is saved. Its state (speaking, waiting, paused, done) is its own queue's, never
// speechSynthesis.speaking, which browsers report differently.
import { createSentenceStream } from '@shared/speech/sentences';
import type { SpeechSynthesisPort, UtteranceOptions } from './synthesis-port';

export interface ReadingCallbacks {
  /** Every sentence has been spoken and the reply is complete. */
  onDone(): void;
  /** An utterance failed (not by our own cancel); the reading has stopped. */
  onError(error: string): void;
}

export interface Reading {
  /** The reply's text so far, while it is written. */
  push(textSoFar: string): void;
  /** The whole reply: whatever was not yet spoken is queued, and the reading ends after it. */
  finish(text: string): void;
  pause(): void;
  resume(): void;
  /** Silences it for good; no callback follows. */
  stop(): void;
}

/** Errors our own cancel() causes: never the player's problem. */
const OWN_CANCEL = new Set(['interrupted', 'canceled']);

export function createBrowserReading(
  port: SpeechSynthesisPort,
  options: UtteranceOptions,
  callbacks: ReadingCallbacks,
): Reading {
  const stream = createSentenceStream();
  const queue: string[] = [];
  let complete = false;
  let speaking = false;
  let paused = false;
  let over = false;

  const end = () => {
    over = true;
    queue.length = 0;
  };

  const next = () => {
    if (over || paused || speaking) return;
    const sentence = queue.shift();
    if (sentence === undefined) {
      if (complete) {
        end();
        callbacks.onDone();
      }
      return;
    }
    speaking = true;
    port.speak(sentence, options, {
      onEnd: () => {
        if (over) return;
        speaking = false;
        next();
      },
      onError: (error) => {
        if (over) return;
        end();
        // Someone else cancelled the speech (another page's code, the system): end quietly.
        if (OWN_CANCEL.has(error)) callbacks.onDone();
        else callbacks.onError(error);
      },
    });
  };

  const enqueue = (sentences: string[]) => {
    if (over) return;
    queue.push(...sentences);
    next();
  };

  return {
    push(textSoFar) {
      if (!complete) enqueue(stream.push(textSoFar));
    },
    finish(text) {
      if (complete) return;
      complete = true;
      enqueue(stream.finish(text));
      // Nothing left to say (an empty reply, or all of it already spoken and ended).
      next();
    },
    pause() {
      if (over || paused) return;
      paused = true;
      // Between sentences there is nothing to pause: the next one just waits.
      if (speaking) port.pause();
    },
    resume() {
      if (over || !paused) return;
      paused = false;
      // Always: an engine that finished the sentence while paused stays paused otherwise (Chrome).
      port.resume();
      next();
    },
    stop() {
      if (over) return;
      end();
      port.cancel();
    },
  };
}
