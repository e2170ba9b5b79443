// Recording for server transcription: getUserMedia({audio: true}) and MediaRecorder behind a small
// port. It records in the first audio type the browser supports (Opus in WebM or Ogg, AAC in MP4
// for Safari), stops by itself at MAX_RECORDING_MS, and always stops the microphone's tracks
// afterwards so the browser's recording indicator goes off.
import { MAX_RECORDING_MS } from '@shared/schemas/speech';
import { RECORDER_MIME_CANDIDATES, RECORDER_TIMESLICE_MS } from '../constants';
import { fromGetUserMediaError, VoiceInputError } from '../errors';
import { releaseStream, type MicrophoneNavigator } from './microphone';

export interface AudioRecording {
  /**
   * Settles once recording has stopped: the recording (by stop() or the time limit), null after
   * cancel(), or a VoiceInputError('record-failed') when the recorder failed.
   */
  readonly done: Promise<Blob | null>;
  /** Ends the recording; `done` then gives it. */
  stop(): void;
  /** Ends the recording and throws it away (leaving the page). */
  cancel(): void;
}

export interface AudioRecorderPort {
  /**
   * Opens the microphone and starts recording. Rejects with a VoiceInputError: 'permission-denied'
   * when the microphone is refused, 'unsupported' without a microphone API, 'start-failed' when
   * the microphone or the recorder cannot start.
   */
  start(options?: { maxDurationMs?: number }): Promise<AudioRecording>;
}

/** The parts of the MediaRecorder class used here. */
export interface MediaRecorderClass {
  new (stream: MediaStream, options?: MediaRecorderOptions): MediaRecorder;
  isTypeSupported?(type: string): boolean;
}

export interface RecorderEnvironment {
  navigator?: MicrophoneNavigator;
  MediaRecorder?: MediaRecorderClass;
}

/** The first candidate the browser can record, or undefined to let it choose. */
export function pickRecordingMimeType(Recorder: Pick<MediaRecorderClass, 'isTypeSupported'>): string | undefined {
  if (typeof Recorder.isTypeSupported !== 'function') return undefined;
  return RECORDER_MIME_CANDIDATES.find((type) => {
    try {
      return Recorder.isTypeSupported?.(type) === true;
    } catch {
      return false;
    }
  });
}

/** Whether this browser can record at all (a microphone API and MediaRecorder). */
export function canRecordAudio(env: RecorderEnvironment = browserRecorderEnvironment()): boolean {
  return typeof env.navigator?.mediaDevices?.getUserMedia === 'function' && typeof env.MediaRecorder === 'function';
}

function browserRecorderEnvironment(): RecorderEnvironment {
  return {
    navigator: typeof navigator === 'undefined' ? undefined : navigator,
    MediaRecorder: typeof MediaRecorder === 'undefined' ? undefined : MediaRecorder,
  };
}

/** The browser recorder, or null where the browser cannot record. */
export function createBrowserAudioRecorder(
  env: RecorderEnvironment = browserRecorderEnvironment(),
): AudioRecorderPort | null {
  if (!canRecordAudio(env)) return null;
  const mediaDevices = env.navigator!.mediaDevices!;
  const Recorder = env.MediaRecorder!;

  return {
    async start({ maxDurationMs = MAX_RECORDING_MS } = {}) {
      let stream: MediaStream;
      try {
        stream = await mediaDevices.getUserMedia({ audio: true });
      } catch (error) {
        throw fromGetUserMediaError(error);
      }

      const mimeType = pickRecordingMimeType(Recorder);
      let recorder: MediaRecorder;
      try {
        recorder = new Recorder(stream, mimeType ? { mimeType } : undefined);
        recorder.start(RECORDER_TIMESLICE_MS);
      } catch (error) {
        releaseStream(stream);
        throw new VoiceInputError(
          'start-failed',
          error instanceof Error ? error.message : 'MediaRecorder failed to start',
          { cause: error },
        );
      }

      const chunks: Blob[] = [];
      let settled = false;
      let resolveDone!: (blob: Blob | null) => void;
      let rejectDone!: (error: unknown) => void;
      const done = new Promise<Blob | null>((resolve, reject) => {
        resolveDone = resolve;
        rejectDone = reject;
      });
      // The caller may stop caring (cancel) before it awaits; never leave an unhandled rejection.
      done.catch(() => undefined);

      const finish = () => {
        clearTimeout(limit);
        releaseStream(stream);
      };
      const limit = setTimeout(() => stopRecorder(), maxDurationMs);

      function stopRecorder() {
        if (recorder.state === 'inactive') return;
        try {
          recorder.stop();
        } catch (error) {
          fail(error);
        }
      }

      function fail(error: unknown) {
        finish();
        if (settled) return;
        settled = true;
        rejectDone(
          new VoiceInputError('record-failed', error instanceof Error ? error.message : 'MediaRecorder failed', {
            cause: error,
          }),
        );
      }

      recorder.addEventListener('dataavailable', (event) => {
        if (event.data && event.data.size > 0) chunks.push(event.data);
      });
      recorder.addEventListener('error', (event) => fail((event as Event & { error?: unknown }).error ?? event));
      recorder.addEventListener('stop', () => {
        finish();
        if (settled) return;
        settled = true;
        // The recorder's own type is the truth (it may add codecs); the chosen one is a fallback.
        const type = recorder.mimeType || mimeType || chunks[0]?.type || '';
        resolveDone(new Blob(chunks, { type }));
      });

      return {
        done,
        stop: stopRecorder,
        cancel: () => {
          if (!settled) {
            settled = true;
            resolveDone(null);
          }
          stopRecorder();
          // Release now, not when the recorder gets round to its stop event: the page is going.
          finish();
        },
      };
    },
  };
}
