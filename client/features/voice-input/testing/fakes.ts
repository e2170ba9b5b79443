// Test doubles for voice input: fake ports for the hook and button, and fake browser APIs
// (SpeechRecognition, MediaRecorder, getUserMedia, permissions.query) for the real adapters.
import { vi, type Mock } from 'vitest';
import type { AudioRecorderPort, AudioRecording } from '../ports/audio-recorder';
import type { MicrophonePermission, MicrophonePort } from '../ports/microphone';
import type { RecognitionHandlers, SpeechRecognizerPort } from '../ports/speech-recognizer';
import type { VoiceInputPorts } from '../ports/voice-input-ports';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface FakeRecognitionSession {
  handlers: RecognitionHandlers;
  stop: Mock<() => void>;
  abort: Mock<() => void>;
}

export interface FakeRecordingControl extends AudioRecording {
  stop: Mock<() => void>;
  cancel: Mock<() => void>;
  /** Ends the recording as the time limit or a stop would, with this audio. */
  finish(audio: Blob): void;
  /** The recorder failed mid-way. */
  break(error?: unknown): void;
}

export interface FakePorts extends VoiceInputPorts {
  recognitionSessions: FakeRecognitionSession[];
  recordings: FakeRecordingControl[];
  /** The Blobs sent to transcribe, in order. */
  uploads: Blob[];
  uploadSignals: AbortSignal[];
  /** Settles the pending upload (the latest one). */
  answerUpload(text: string): void;
  failUpload(error?: unknown): void;
  microphone: MicrophonePort & { query: Mock<() => Promise<MicrophonePermission>>; probe: Mock<() => Promise<void>> };
}

export interface FakePortsOptions {
  recognizer?: boolean;
  recorder?: boolean;
  permission?: MicrophonePermission;
  /** Thrown by probe() (the getUserMedia check of the recognition path). */
  probeError?: unknown;
  /** Thrown by recognizer.start(). */
  recognitionStartError?: unknown;
  /** Rejected by recorder.start(). */
  recorderStartError?: unknown;
  /** The audio a stop() gives. */
  audio?: Blob;
}

export function fakeAudio(bytes = 2048, type = 'audio/webm;codecs=opus'): Blob {
  return new Blob([new Uint8Array(bytes)], { type });
}

export function createFakePorts(options: FakePortsOptions = {}): FakePorts {
  const { recognizer = true, recorder = true, permission = 'granted' } = options;
  const recognitionSessions: FakeRecognitionSession[] = [];
  const recordings: FakeRecordingControl[] = [];
  const uploads: Blob[] = [];
  const uploadSignals: AbortSignal[] = [];
  let pendingUpload: ReturnType<typeof deferred<string>> | null = null;

  const recognizerPort: SpeechRecognizerPort = {
    start: vi.fn((handlers: RecognitionHandlers) => {
      if (options.recognitionStartError) throw options.recognitionStartError;
      const session = { handlers, stop: vi.fn(), abort: vi.fn() };
      recognitionSessions.push(session);
      return session;
    }),
  };

  const recorderPort: AudioRecorderPort = {
    start: vi.fn(async () => {
      if (options.recorderStartError) throw options.recorderStartError;
      const done = deferred<Blob | null>();
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        fn();
      };
      const control: FakeRecordingControl = {
        done: done.promise,
        stop: vi.fn(() => settle(() => done.resolve(options.audio ?? fakeAudio()))),
        cancel: vi.fn(() => settle(() => done.resolve(null))),
        finish: (audio) => settle(() => done.resolve(audio)),
        break: (error = new Error('recorder broke')) => settle(() => done.reject(error)),
      };
      recordings.push(control);
      return control;
    }),
  };

  return {
    recognizer: recognizer ? recognizerPort : null,
    recorder: recorder ? recorderPort : null,
    microphone: {
      query: vi.fn(async () => permission),
      probe: vi.fn(async () => {
        if (options.probeError) throw options.probeError;
      }),
    },
    transcribe: vi.fn((audio: Blob, { signal }: { signal: AbortSignal }) => {
      uploads.push(audio);
      uploadSignals.push(signal);
      pendingUpload = deferred<string>();
      return pendingUpload.promise;
    }),
    recognitionSessions,
    recordings,
    uploads,
    uploadSignals,
    answerUpload: (text) => pendingUpload?.resolve(text),
    failUpload: (error = new Error('upload failed')) => pendingUpload?.reject(error),
  };
}

// ---- Fake browser APIs, for the real adapters -------------------------------------------------

/** A stand-in for webkitSpeechRecognition: records its settings and lets the test fire its events. */
export class FakeSpeechRecognition extends EventTarget {
  static instances: FakeSpeechRecognition[] = [];
  static startError: unknown = null;
  lang = '';
  continuous = true;
  interimResults = true;
  maxAlternatives = 5;
  started = false;
  stop = vi.fn(() => undefined);
  abort = vi.fn(() => undefined);

  constructor() {
    super();
    FakeSpeechRecognition.instances.push(this);
  }

  start() {
    if (FakeSpeechRecognition.startError) throw FakeSpeechRecognition.startError;
    this.started = true;
  }

  emitResult(...transcripts: string[]) {
    const results = transcripts.map((transcript) =>
      Object.assign([{ transcript, confidence: 0.9 }], { isFinal: true }),
    );
    this.dispatchEvent(Object.assign(new Event('result'), { resultIndex: 0, results }));
  }

  emitError(error: string) {
    this.dispatchEvent(Object.assign(new Event('error'), { error }));
  }

  emitEnd() {
    this.dispatchEvent(new Event('end'));
  }

  static reset() {
    FakeSpeechRecognition.instances = [];
    FakeSpeechRecognition.startError = null;
  }
}

export function fakeStream() {
  const track = { stop: vi.fn(), kind: 'audio' };
  return { stream: { getTracks: () => [track] } as unknown as MediaStream, track };
}

/** A stand-in for MediaRecorder that hands over one chunk per start/stop and fires its events. */
export class FakeMediaRecorder extends EventTarget {
  static instances: FakeMediaRecorder[] = [];
  static supported: string[] = ['audio/webm;codecs=opus', 'audio/webm'];
  static constructorError: unknown = null;
  static isTypeSupported = vi.fn((type: string) => FakeMediaRecorder.supported.includes(type));
  state: RecordingState = 'inactive';
  readonly mimeType: string;
  timeslice: number | undefined;

  constructor(
    readonly stream: MediaStream,
    readonly options?: MediaRecorderOptions,
  ) {
    super();
    if (FakeMediaRecorder.constructorError) throw FakeMediaRecorder.constructorError;
    this.mimeType = options?.mimeType ?? 'audio/webm';
    FakeMediaRecorder.instances.push(this);
  }

  start(timeslice?: number) {
    this.timeslice = timeslice;
    this.state = 'recording';
  }

  /** A chunk arrives (as it would every timeslice). */
  emitData(bytes = 1024) {
    this.dispatchEvent(
      Object.assign(new Event('dataavailable'), { data: new Blob([new Uint8Array(bytes)], { type: this.mimeType }) }),
    );
  }

  stop() {
    if (this.state === 'inactive') throw new DOMException('not recording', 'InvalidStateError');
    this.state = 'inactive';
    this.emitData(512);
    this.dispatchEvent(new Event('stop'));
  }

  emitError() {
    this.state = 'inactive';
    this.dispatchEvent(Object.assign(new Event('error'), { error: new DOMException('boom', 'UnknownError') }));
  }

  static reset() {
    FakeMediaRecorder.instances = [];
    FakeMediaRecorder.supported = ['audio/webm;codecs=opus', 'audio/webm'];
    FakeMediaRecorder.constructorError = null;
    FakeMediaRecorder.isTypeSupported.mockClear();
  }
}

export interface BrowserSpeechInstall {
  recognition?: boolean;
  mediaRecorder?: boolean;
  /** Undefined: no navigator.mediaDevices at all. */
  getUserMedia?: Mock<(constraints: MediaStreamConstraints) => Promise<MediaStream>>;
  /** Undefined: no navigator.permissions. */
  permission?: PermissionState;
}

/** Installs fake speech APIs on window and navigator; returns a function that takes them away. */
export function installBrowserSpeech(install: BrowserSpeechInstall): () => void {
  const restores: Array<() => void> = [];
  const define = (target: object, key: string, value: unknown) => {
    const previous = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { configurable: true, writable: true, value });
    restores.push(() => {
      if (previous) Object.defineProperty(target, key, previous);
      else delete (target as Record<string, unknown>)[key];
    });
  };
  FakeSpeechRecognition.reset();
  FakeMediaRecorder.reset();
  if (install.recognition) define(window, 'webkitSpeechRecognition', FakeSpeechRecognition);
  if (install.mediaRecorder) define(globalThis, 'MediaRecorder', FakeMediaRecorder);
  define(navigator, 'mediaDevices', install.getUserMedia ? { getUserMedia: install.getUserMedia } : undefined);
  define(
    navigator,
    'permissions',
    install.permission ? { query: vi.fn(async () => ({ state: install.permission })) } : undefined,
  );
  return () => restores.reverse().forEach((restore) => restore());
}
