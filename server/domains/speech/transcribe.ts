// Server transcription of a player's recording. The bytes are checked to be real audio of a
// container we know before anything is paid; the call is admitted against the player's hour and
// month by the recording's size, and written to the usage ledger by the transcript's characters.
import { CONTAINER_FILES, sniffAudio } from '@server/ai/speech/audio-format';
import type { SttProvider } from '@server/ai/speech/types';
import type { Repositories } from '@server/db/repositories';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { ERROR_CODES } from '@shared/schemas/common';
import { SPEECH_MESSAGES, type TranscriptionResponse } from '@shared/schemas/speech';
import { expectedTranscriptionTokens, type Allowance } from '../limits/allowance';
import { providerFailure } from './provider-failure';

interface TranscribeDeps {
  repos: Pick<Repositories, 'usage'>;
  stt: SttProvider;
  apiKey: string | undefined;
  allowance: Pick<Allowance, 'admit'>;
  now: () => Date;
  log: Log;
}

export async function transcribe(deps: TranscribeDeps, userId: number, audio: Buffer): Promise<TranscriptionResponse> {
  const { stt } = deps;
  if (audio.length === 0) throw new DomainError('invalid', ERROR_CODES.validation, SPEECH_MESSAGES.emptyRecording);
  const container = sniffAudio(audio);
  if (!container) throw new DomainError('invalid', ERROR_CODES.unsupportedMediaType, SPEECH_MESSAGES.audioType);
  const hold = await deps.allowance.admit(userId, 'transcription', expectedTranscriptionTokens(audio.length));
  try {
    let text: string;
    try {
      // The file is named after what the bytes are, whatever the header claimed: servers choose the decoder by its extension.
      ({ text } = await stt.transcribe({
        audio,
        ...CONTAINER_FILES[container],
        signal: new AbortController().signal,
      }));
    } catch (error) {
      throw providerFailure(
        error,
        { kind: 'transcription', provider: stt, apiKey: deps.apiKey, log: deps.log },
        { userId, bytes: audio.length, container },
      );
    }
    const transcript = text.trim();
    await deps.repos.usage.record({
      userId,
      storyId: null,
      kind: 'transcription',
      provider: stt.id,
      model: stt.model,
      characters: transcript.length,
      createdAt: deps.now(),
    });
    return { text: transcript };
  } finally {
    await hold.release();
  }
}
