// Reading a story: GET current-state (the authoritative messages, their scene pictures and the
// header picture; undo, redo and erase answer the same shape), and the bookmark recovery GET
// recover?messageId= read tolerantly with the spec's 15 s timeout and error texts.
import { RECOVERY_TIMEOUT_MS } from '@shared/constants';
import type { SceneImage } from '@shared/schemas/images';
import { storyStateResponseSchema, type StoryMessage, type StoryStateResponse } from '@shared/schemas/story';
import { apiFetch, apiGet, ApiRequestError, CLIENT_ERROR_CODES, readJson } from '@client/lib/api-client';
import { takeEarlyStoryRead } from '@client/lib/early-story-read';
import { toScenePicture } from '@client/features/images';
import { STORY_STRINGS } from '../strings';
import { normalizeRecovery, parseRecoveryBody, type RecoveredMessage, type RecoveredStory } from '../utils/recovery';
import { storyErrorFromResponse } from './story-errors';

/** A server message with its picture from the read's `images` (or, failing that, its `image` URL). */
export function fromServerMessage(m: StoryMessage, image?: SceneImage): RecoveredMessage {
  const message: RecoveredMessage = {
    messageId: m.messageId,
    role: m.role,
    content: m.content,
    createdAt: m.createdAt,
    isInitialMessage: m.isInitialMessage,
  };
  if (m.versions !== undefined && m.versions > 1) {
    message.version = m.version ?? m.versions;
    message.versions = m.versions;
  }
  if (m.role !== 'assistant') return message;
  if (m.loopGuard) message.loopGuard = m.loopGuard;
  if (m.usage) message.usage = m.usage;
  const picture = image
    ? toScenePicture(image)
    : m.image
      ? { status: 'ready' as const, url: m.image, alt: '' }
      : undefined;
  if (picture) message.picture = picture;
  const url = picture?.status === 'ready' ? picture.url : undefined;
  if (url) message.image = url;
  return message;
}

export interface CurrentStoryState {
  messages: RecoveredMessage[];
  /** The narrator is still writing the reply to the last action. */
  replying: boolean;
  storyImage: string | null;
  /** Undone or erased turns wait after the story's end: redo would bring them back. */
  canRedo?: boolean;
}

/** The story as a read (or undo, redo, erase) answers it, each reply with its picture. */
export function toCurrentState(state: StoryStateResponse): CurrentStoryState {
  const images = new Map(state.images.map((image) => [image.messageId, image]));
  return {
    messages: state.messages.map((m) => fromServerMessage(m, images.get(m.messageId))),
    replying: state.replying,
    storyImage: state.storyImage,
    canRedo: state.canRedo ?? false,
  };
}

export async function fetchCurrentState(storyId: number, signal?: AbortSignal): Promise<CurrentStoryState> {
  const early = takeEarlyStoryRead(storyId);
  const state = early
    ? await readJson(await early, storyStateResponseSchema)
    : await apiGet(`/api/story/${storyId}/current-state`, { schema: storyStateResponseSchema, signal });
  return toCurrentState(state);
}

export async function fetchRecovery(
  storyId: number,
  messageId: number,
  signal?: AbortSignal,
  timeoutMs = RECOVERY_TIMEOUT_MS,
): Promise<RecoveredStory> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  try {
    const response = await apiFetch(`/api/story/${storyId}/recover?messageId=${messageId}`, {
      signal: controller.signal,
    });
    if (!response.ok) throw await storyErrorFromResponse(response);
    return normalizeRecovery(parseRecoveryBody(await response.text(), response.headers.get('content-type')));
  } catch (error) {
    if (controller.signal.aborted && !signal?.aborted) {
      throw new ApiRequestError(STORY_STRINGS.recoveryTimeout, { status: 0, code: CLIENT_ERROR_CODES.network });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}
