// A speech provider's failure as the player reads it, shared by the server voice and the
// transcriber: a provider failure, or a provider timeout (answered 502 and 504), in the spec's
// words; what the provider said goes to the log only, its key redacted.
import { SpeechError } from '@server/ai/speech/types';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { redact } from '@server/kernel/redact';
import { ERROR_CODES } from '@shared/schemas/common';
import { SPEECH_MESSAGES } from '@shared/schemas/speech';

/** The provider that failed, as the log names it, and the key its detail must not show. */
export interface FailingProvider {
  kind: 'speech' | 'transcription';
  provider: { id: string; model: string } | null;
  apiKey: string | undefined;
  log: Log;
}

/** The error to throw for `error`: a SpeechError becomes the player's failure or timeout (logged); anything else is thrown as it is. */
export function providerFailure(
  error: unknown,
  { kind, provider, apiKey, log }: FailingProvider,
  context: Record<string, unknown>,
): unknown {
  if (!(error instanceof SpeechError)) return error;
  const speech = kind === 'speech';
  log.warn(
    {
      ...context,
      provider: provider?.id,
      model: provider?.model,
      failure: error.failure,
      detail: redact(error.detail, [apiKey]),
    },
    `${kind} provider call failed`,
  );
  const timeout = error.failure === 'timeout';
  const code = speech
    ? timeout
      ? ERROR_CODES.speechTimeout
      : ERROR_CODES.speechFailed
    : timeout
      ? ERROR_CODES.transcriptionTimeout
      : ERROR_CODES.transcriptionFailed;
  const message = speech ? SPEECH_MESSAGES.speakFailed : SPEECH_MESSAGES.recordFailed;
  return new DomainError(timeout ? 'providerTimeout' : 'providerFailed', code, message);
}
