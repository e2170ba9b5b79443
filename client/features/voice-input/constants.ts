// Voice input's fixed settings: the browser recogniser's and the recorder's.
export const RECOGNITION_SETTINGS = {
  lang: 'en-US',
  continuous: false,
  interimResults: false,
  maxAlternatives: 1,
} as const;

/** Tried in this order with MediaRecorder.isTypeSupported; the first one the browser records wins. */
export const RECORDER_MIME_CANDIDATES = [
  'audio/webm;codecs=opus',
  'audio/webm',
  'audio/ogg;codecs=opus',
  'audio/mp4',
] as const;

/** The recorder hands over a chunk every second, so a failure late in a long take keeps what came before. */
export const RECORDER_TIMESLICE_MS = 1000;
