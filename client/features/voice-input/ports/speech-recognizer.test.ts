// The browser recogniser port: the product's settings (en-US, non-continuous, no interim
// results, one alternative), its result, error and end events, and a start() that throws.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeSpeechRecognition } from '../testing/fakes';
import { createBrowserSpeechRecognizer, findSpeechRecognition, type RecognitionWindow } from './speech-recognizer';

const win = (): RecognitionWindow => ({ webkitSpeechRecognition: FakeSpeechRecognition });
const handlers = () => ({ onResult: vi.fn(), onError: vi.fn(), onEnd: vi.fn() });

beforeEach(() => FakeSpeechRecognition.reset());
afterEach(() => FakeSpeechRecognition.reset());

describe('createBrowserSpeechRecognizer', () => {
  it('is null where the browser has no SpeechRecognition', () => {
    expect(createBrowserSpeechRecognizer({})).toBeNull();
  });

  it('prefers the standard SpeechRecognition over the webkit one', () => {
    class Standard extends FakeSpeechRecognition {}
    expect(findSpeechRecognition({ SpeechRecognition: Standard, webkitSpeechRecognition: FakeSpeechRecognition })).toBe(
      Standard,
    );
    expect(findSpeechRecognition(win())).toBe(FakeSpeechRecognition);
  });

  it('listens in en-US, once, without interim results, with one alternative', () => {
    createBrowserSpeechRecognizer(win())!.start(handlers());
    const [recognition] = FakeSpeechRecognition.instances;
    expect(recognition).toMatchObject({
      lang: 'en-US',
      continuous: false,
      interimResults: false,
      maxAlternatives: 1,
      started: true,
    });
  });

  it('reports the final text, errors and the end, once', () => {
    const h = handlers();
    createBrowserSpeechRecognizer(win())!.start(h);
    const [recognition] = FakeSpeechRecognition.instances;
    recognition.emitResult(' look behind the door ');
    expect(h.onResult).toHaveBeenCalledWith('look behind the door');
    recognition.emitError('network');
    expect(h.onError).toHaveBeenCalledWith('network');
    recognition.emitEnd();
    recognition.emitEnd();
    expect(h.onEnd).toHaveBeenCalledTimes(1);
    // After the end nothing more is reported.
    recognition.emitResult('late');
    expect(h.onResult).toHaveBeenCalledTimes(1);
  });

  it('ignores a result with no words', () => {
    const h = handlers();
    createBrowserSpeechRecognizer(win())!.start(h);
    FakeSpeechRecognition.instances[0].emitResult('   ');
    expect(h.onResult).not.toHaveBeenCalled();
  });

  it('passes stop and abort through to the recogniser', () => {
    const session = createBrowserSpeechRecognizer(win())!.start(handlers());
    const [recognition] = FakeSpeechRecognition.instances;
    session.stop();
    expect(recognition.stop).toHaveBeenCalled();
    session.abort();
    expect(recognition.abort).toHaveBeenCalled();
  });

  it('throws when start() throws, leaving no listeners behind', () => {
    FakeSpeechRecognition.startError = new DOMException('already started', 'InvalidStateError');
    const h = handlers();
    expect(() => createBrowserSpeechRecognizer(win())!.start(h)).toThrow('already started');
    FakeSpeechRecognition.instances[0].emitEnd();
    expect(h.onEnd).not.toHaveBeenCalled();
  });
});
