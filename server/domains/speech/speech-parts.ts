// Which sentence of which reply a server-voice request asks for. Everything a request can get wrong
// (voices off, an unknown voice, another player's or a missing message, the player's own words, a
// part past the reply's end) is refused here, before any audio is read or made. The reply is split
// by shared/speech/sentences.ts, exactly as the browser splits it, so part N is the same sentence
// on both sides.
import { createHash } from 'node:crypto';
import type { TtsProvider } from '@server/ai/speech/types';
import type { Repositories } from '@server/db/repositories';
import { DomainError } from '@server/kernel/errors';
import { ERROR_CODES } from '@shared/schemas/common';
import { SPEECH_MESSAGES, type SpeechPartParams } from '@shared/schemas/speech';
import { splitSentences } from '@shared/speech/sentences';

/** One sentence of one reply in one voice: what the clip is looked up, cached and revalidated by. */
export interface LocatedPart {
  storyId: number;
  messageId: number;
  voice: string;
  text: string;
  textHash: string;
  /** How many parts the reply is spoken in (the X-Speech-Parts header). */
  parts: number;
  /** Strong, from the sentence and the voice: the same words in the same voice are the same clip. */
  etag: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export const ttsDisabled = () => new DomainError('unavailable', ERROR_CODES.ttsDisabled, SPEECH_MESSAGES.ttsDisabled);

interface PartDeps {
  repos: Pick<Repositories, 'speech'>;
  /** Null when server voices are off. */
  tts: TtsProvider | null;
  voices: readonly string[];
}

/** Finds the sentence to speak, checking everything a request can get wrong before any audio is read or made. */
export async function locatePart(
  { repos, tts, voices }: PartDeps,
  userId: number,
  params: SpeechPartParams,
  voice: string,
): Promise<LocatedPart> {
  if (!tts) throw ttsDisabled();
  if (!voices.includes(voice)) throw new DomainError('invalid', ERROR_CODES.validation, SPEECH_MESSAGES.unknownVoice);
  const message = await repos.speech.findOwnedMessage(userId, params.storyId, params.messageId);
  if (!message) throw new DomainError('notFound', ERROR_CODES.notFound, SPEECH_MESSAGES.messageNotFound);
  if (message.role !== 'assistant')
    throw new DomainError('invalid', ERROR_CODES.validation, SPEECH_MESSAGES.notNarration);
  const sentences = splitSentences(message.content);
  const text = sentences[params.part];
  if (text === undefined) throw new DomainError('notFound', ERROR_CODES.notFound, SPEECH_MESSAGES.partNotFound);
  const textHash = sha256(text);
  const etag = `"${sha256(`${voice}\n${textHash}`).slice(0, 32)}"`;
  return { storyId: params.storyId, messageId: message.id, voice, text, textHash, parts: sentences.length, etag };
}
