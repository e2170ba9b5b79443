// The ways voice input can fail, as the ports report them. The hook turns each kind into the
// spec's toast; the ports never show anything themselves.
export type VoiceInputErrorKind =
  /** The microphone was refused (NotAllowedError, SecurityError, a 'denied' permission). */
  | 'permission-denied'
  /** The browser has no microphone API at all. */
  | 'unsupported'
  /** The microphone or recorder could not start (no device, device busy, recorder refused the stream). */
  | 'start-failed'
  /** Recording, recognition or the upload failed once under way. */
  | 'record-failed';

export class VoiceInputError extends Error {
  readonly kind: VoiceInputErrorKind;

  constructor(kind: VoiceInputErrorKind, message: string = kind, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'VoiceInputError';
    this.kind = kind;
  }
}

export function voiceInputErrorKind(error: unknown, fallback: VoiceInputErrorKind): VoiceInputErrorKind {
  return error instanceof VoiceInputError ? error.kind : fallback;
}

/** getUserMedia's refusals: NotAllowedError (and Safari's old PermissionDeniedError) or SecurityError. */
export function isPermissionError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    ['NotAllowedError', 'PermissionDeniedError', 'SecurityError'].includes(String(error.name))
  );
}

/** Maps a getUserMedia rejection to a kind: a refusal, or a microphone that would not start. */
export function fromGetUserMediaError(error: unknown): VoiceInputError {
  return new VoiceInputError(
    isPermissionError(error) ? 'permission-denied' : 'start-failed',
    error instanceof Error ? error.message : 'getUserMedia failed',
    { cause: error },
  );
}
