// Voice input's state (speech input is switched on after a microphone permission
// check; recording goes idle -> recording -> idle on end, error or a stop click). Two paths:
// - the server transcribes (features.speech.transcription): record with MediaRecorder, then POST
//   the recording; this is what lets Firefox and Safari players speak;
// - otherwise the browser's own SpeechRecognition listens.
// Whatever happens, the text only ever joins the draft (onTranscript); it is never sent by itself,
// and nothing typed is touched on failure. Leaving the page drops everything and frees the mic.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MAX_RECORDING_BYTES, MAX_RECORDING_MS } from '@shared/schemas/speech';
import { toast } from '@client/components/ui/use-toast';
import { voiceInputErrorKind, type VoiceInputErrorKind } from '../errors';
import type { MicrophonePermission } from '../ports/microphone';
import { createBrowserVoiceInputPorts, type VoiceInputPorts } from '../ports/voice-input-ports';
import { VOICE_INPUT_STRINGS as S } from '../strings';

/**
 * 'starting': checking the permission and opening the microphone (a click cancels);
 * 'recording': listening (a click stops); 'processing': stopped, waiting for the text.
 */
export type VoiceInputPhase = 'idle' | 'starting' | 'recording' | 'processing';

export type VoiceInputPath = 'record' | 'recognize' | 'input-unsupported' | 'recognition-unsupported';

/** Server transcription when the server offers it and the browser can record; else the browser's recogniser. */
export function chooseVoiceInputPath(
  transcription: boolean,
  ports: Pick<VoiceInputPorts, 'recognizer' | 'recorder'>,
): VoiceInputPath {
  if (transcription && ports.recorder) return 'record';
  if (ports.recognizer) return 'recognize';
  return transcription ? 'input-unsupported' : 'recognition-unsupported';
}

/** Recognition errors that end listening quietly: nothing was said, or listening was cancelled. */
const QUIET_RECOGNITION_ERRORS = new Set(['no-speech', 'aborted']);
const PERMISSION_RECOGNITION_ERRORS = new Set(['not-allowed', 'service-not-allowed']);

export function showVoiceInputFailure(kind: VoiceInputErrorKind): void {
  const content = {
    'permission-denied': { title: S.permissionTitle, description: S.permissionText },
    unsupported: { title: S.notSupportedTitle, description: S.inputNotSupportedText },
    'start-failed': { title: S.recordingErrorTitle, description: S.startFailedText },
    'record-failed': { title: S.recordingErrorTitle, description: S.recordFailedText },
  }[kind];
  toast({ ...content, variant: 'destructive' });
}

interface Attempt {
  /** Set once the attempt has ended (text delivered, failed or cancelled); later events are ignored. */
  over: boolean;
  stop(): void;
  cancel(): void;
}

export interface UseVoiceInputOptions {
  /** The server transcribes recordings (useFeatures().data.speech.transcription). */
  transcription: boolean;
  /** Receives the recognised text (trimmed, never empty) to add to the draft. */
  onTranscript(text: string): void;
  /** Fakes for tests; the real browser otherwise. */
  ports?: VoiceInputPorts;
}

export interface VoiceInput {
  phase: VoiceInputPhase;
  /** The latest polite announcement for screen readers. */
  announcement: string;
  /** The button's click: start when idle, cancel while starting, stop while recording. */
  toggle(): void;
}

const noop = () => undefined;

export function useVoiceInput(options: UseVoiceInputOptions): VoiceInput {
  const [phase, setPhaseState] = useState<VoiceInputPhase>('idle');
  const [announcement, setAnnouncement] = useState('');
  const phaseRef = useRef<VoiceInputPhase>('idle');
  const attemptRef = useRef<Attempt | null>(null);
  const optionsRef = useRef(options);
  const browserPortsRef = useRef<VoiceInputPorts | null>(null);

  useLayoutEffect(() => {
    optionsRef.current = options;
  });

  const setPhase = useCallback((next: VoiceInputPhase) => {
    phaseRef.current = next;
    setPhaseState(next);
  }, []);

  const end = useCallback(
    (attempt: Attempt, note: string) => {
      attempt.over = true;
      if (attemptRef.current !== attempt) return;
      attemptRef.current = null;
      setPhase('idle');
      setAnnouncement(note);
    },
    [setPhase],
  );

  const fail = useCallback(
    (attempt: Attempt, kind: VoiceInputErrorKind) => {
      if (attempt.over) return;
      showVoiceInputFailure(kind);
      // The toast speaks for itself; the live region is cleared rather than repeating it.
      end(attempt, '');
    },
    [end],
  );

  /** Hands text to the draft; answers whether there was any. */
  const deliver = useCallback((text: string): boolean => {
    const trimmed = text.trim();
    if (trimmed === '') return false;
    optionsRef.current.onTranscript(trimmed);
    return true;
  }, []);

  const markProcessing = useCallback(() => {
    if (phaseRef.current !== 'recording') return;
    setPhase('processing');
    setAnnouncement(S.announceTranscribing);
  }, [setPhase]);

  const record = useCallback(
    async (attempt: Attempt, ports: VoiceInputPorts) => {
      let recording;
      try {
        recording = await ports.recorder!.start({ maxDurationMs: MAX_RECORDING_MS });
      } catch (error) {
        fail(attempt, voiceInputErrorKind(error, 'start-failed'));
        return;
      }
      if (attempt.over) {
        recording.cancel();
        return;
      }
      const upload = new AbortController();
      attempt.stop = () => {
        markProcessing();
        recording.stop();
      };
      attempt.cancel = () => {
        recording.cancel();
        upload.abort();
      };
      setPhase('recording');
      setAnnouncement(S.announceRecording);

      let audio: Blob | null;
      try {
        audio = await recording.done;
      } catch {
        fail(attempt, 'record-failed');
        return;
      }
      if (attempt.over || audio === null) return;
      // Stopped by the time limit rather than a click.
      markProcessing();
      if (audio.size === 0 || audio.size > MAX_RECORDING_BYTES) {
        fail(attempt, 'record-failed');
        return;
      }
      let text: string;
      try {
        text = await ports.transcribe(audio, { signal: upload.signal });
      } catch {
        fail(attempt, 'record-failed');
        return;
      }
      if (attempt.over) return;
      const added = deliver(text);
      end(attempt, added ? S.announceAdded : S.announceNoSpeech);
    },
    [deliver, end, fail, markProcessing, setPhase],
  );

  const recognize = useCallback(
    async (attempt: Attempt, ports: VoiceInputPorts, permission: MicrophonePermission) => {
      if (permission !== 'granted') {
        try {
          await ports.microphone.probe();
        } catch (error) {
          fail(attempt, voiceInputErrorKind(error, 'start-failed'));
          return;
        }
        if (attempt.over) return;
      }
      let heard = false;
      let session;
      try {
        session = ports.recognizer!.start({
          onResult: (text) => {
            if (!attempt.over && deliver(text)) heard = true;
          },
          onError: (code) => {
            if (attempt.over || QUIET_RECOGNITION_ERRORS.has(code)) return;
            fail(attempt, PERMISSION_RECOGNITION_ERRORS.has(code) ? 'permission-denied' : 'record-failed');
          },
          onEnd: () => {
            if (!attempt.over) end(attempt, heard ? S.announceAdded : S.announceNoSpeech);
          },
        });
      } catch {
        fail(attempt, 'start-failed');
        return;
      }
      attempt.stop = () => {
        markProcessing();
        session.stop();
      };
      attempt.cancel = () => session.abort();
      if (attempt.over) return;
      setPhase('recording');
      setAnnouncement(S.announceRecording);
    },
    [deliver, end, fail, markProcessing, setPhase],
  );

  const begin = useCallback(async () => {
    const { transcription, ports: given } = optionsRef.current;
    const ports = given ?? (browserPortsRef.current ??= createBrowserVoiceInputPorts());
    const path = chooseVoiceInputPath(transcription, ports);
    if (path === 'recognition-unsupported') {
      toast({
        title: S.recognitionUnsupportedTitle,
        description: S.recognitionUnsupportedText,
        variant: 'destructive',
      });
      return;
    }
    if (path === 'input-unsupported') {
      showVoiceInputFailure('unsupported');
      return;
    }
    const attempt: Attempt = { over: false, stop: noop, cancel: noop };
    attemptRef.current = attempt;
    setPhase('starting');
    setAnnouncement('');
    try {
      const permission = await ports.microphone.query();
      if (attempt.over) return;
      if (permission === 'denied') {
        fail(attempt, 'permission-denied');
        return;
      }
      if (path === 'record') await record(attempt, ports);
      else await recognize(attempt, ports, permission);
    } catch {
      // A port broke its contract; still end in a known state with the spec's message.
      fail(attempt, 'start-failed');
    }
  }, [fail, recognize, record, setPhase]);

  const toggle = useCallback(() => {
    const attempt = attemptRef.current;
    if (!attempt) {
      void begin();
      return;
    }
    if (phaseRef.current === 'starting') {
      attempt.cancel();
      end(attempt, S.announceCancelled);
    } else if (phaseRef.current === 'recording') {
      attempt.stop();
    }
    // 'processing': the text is on its way; a click changes nothing.
  }, [begin, end]);

  // Leaving the page: abort recognition, stop the recorder without uploading, free the microphone.
  useEffect(
    () => () => {
      const attempt = attemptRef.current;
      if (!attempt) return;
      attempt.over = true;
      attemptRef.current = null;
      attempt.cancel();
    },
    [],
  );

  return { phase, announcement, toggle };
}
