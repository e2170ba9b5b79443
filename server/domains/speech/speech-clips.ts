// A located sentence's audio in the server voice. A clip made before is replayed from the database
// for free (no provider call, no ledger row, no limit counted); otherwise it is a paid call, admitted
// against the player's hour and month, and the clip is kept with its ledger row for the next replay.
// A second request for a clip this instance is already reading or making waits for the first
// instead of paying twice.
import type { TtsProvider } from '@server/ai/speech/types';
import type { Repositories } from '@server/db/repositories';
import type { SpeechClip } from '@server/db/repositories/speech';
import { DomainError } from '@server/kernel/errors';
import type { Log } from '@server/kernel/log';
import { ERROR_CODES } from '@shared/schemas/common';
import { STORY_MESSAGES } from '@shared/schemas/story';
import { speechTokens, type Allowance } from '../limits/allowance';
import { providerFailure } from './provider-failure';
import type { LocatedPart } from './speech-parts';

export interface ClipDeps {
  repos: Pick<Repositories, 'speech'>;
  tts: TtsProvider;
  apiKey: string | undefined;
  allowance: Pick<Allowance, 'admit'>;
  now: () => Date;
  flush: () => Promise<void>;
  log: Log;
}

async function synthesizeAndKeep(deps: ClipDeps, userId: number, part: LocatedPart): Promise<SpeechClip> {
  const { tts: voice } = deps;
  let bytes: Uint8Array;
  let mime: string;
  try {
    // Not tied to the request: a clip the listener skipped is still kept for the next replay.
    ({ bytes, mime } = await voice.synthesize({
      text: part.text,
      voice: part.voice,
      signal: new AbortController().signal,
    }));
  } catch (error) {
    throw providerFailure(
      error,
      { kind: 'speech', provider: voice, apiKey: deps.apiKey, log: deps.log },
      { storyId: part.storyId, messageId: part.messageId, voice: part.voice },
    );
  }
  const clip: SpeechClip = { mime, audio: Buffer.from(bytes), characters: part.text.length };
  try {
    await deps.repos.speech.saveClip({
      ...clip,
      messageId: part.messageId,
      voice: part.voice,
      textHash: part.textHash,
      usage: {
        userId,
        storyId: part.storyId,
        kind: 'speech',
        provider: voice.id,
        model: voice.model,
        characters: clip.characters,
      },
      now: deps.now(),
    });
    // This runs under a GET, which the app does not flush for: the paid-for clip and its ledger row must be durable.
    await deps.flush();
  } catch (error) {
    // Typically the reply was replaced by a retry meanwhile; the listener still gets what was made.
    deps.log.error({ err: error, storyId: part.storyId, messageId: part.messageId }, 'could not keep a speech clip');
  }
  return clip;
}

async function synthesize(deps: ClipDeps, userId: number, part: LocatedPart): Promise<SpeechClip> {
  const hold = await deps.allowance.admit(userId, 'speech', speechTokens(part.text.length));
  try {
    return await synthesizeAndKeep(deps, userId, part);
  } finally {
    await hold.release();
  }
}

/** A clip made before, or the 403 of a request that may not pay for a new one. */
export async function keptClipOnly(repos: Pick<Repositories, 'speech'>, part: LocatedPart): Promise<SpeechClip> {
  const kept = await repos.speech.findClip(part.messageId, part.voice, part.textHash);
  if (!kept) throw new DomainError('forbidden', ERROR_CODES.forbidden, STORY_MESSAGES.crossSite);
  return kept;
}

/** The clips being read or made in this instance, each once: `clipFor` joins a request to the one already running. */
export function createClipSource(deps: ClipDeps) {
  const inFlight = new Map<string, Promise<SpeechClip>>();
  return function clipFor(userId: number, part: LocatedPart): Promise<SpeechClip> {
    const key = `${part.messageId}\n${part.voice}\n${part.textHash}`;
    const running = inFlight.get(key);
    if (running) return running;
    const pending = (async () =>
      (await deps.repos.speech.findClip(part.messageId, part.voice, part.textHash)) ??
      synthesize(deps, userId, part))().finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
    return pending;
  };
}
