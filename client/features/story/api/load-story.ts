// Reading a story: GET current-state (the authoritative messages), and the bookmark recovery
// GET recover?messageId= read tolerantly with the spec's 15 s timeout and error texts.
import { RECOVERY_TIMEOUT_MS } from '@shared/constants';
import { storyStateResponseSchema, type StoryMessage } from '@shared/schemas/story';
import { apiFetch, apiGet, ApiRequestError, CLIENT_ERROR_CODES } from '@client/lib/api-client';
import { STORY_STRINGS } from '../strings';
import { normalizeRecovery, parseRecoveryBody, type RecoveredMessage, type RecoveredStory } from '../utils/recovery';
import { storyErrorFromResponse } from './story-errors';

export function fromServerMessage(m: StoryMessage): RecoveredMessage {
  return { messageId: m.messageId, role: m.role, content: m.content, createdAt: m.createdAt, isInitialMessage: m.isInitialMessage };
}

export interface CurrentStoryState {
  messages: RecoveredMessage[];
  /** The narrator is still writing the reply to the last action. */
  replying: boolean;
}

export async function fetchCurrentState(storyId: number, signal?: AbortSignal): Promise<CurrentStoryState> {
  const state = await apiGet(`/api/story/${storyId}/current-state`, { schema: storyStateResponseSchema, signal });
  return { messages: state.messages.map(fromServerMessage), replying: state.replying };
}

export async function fetchRecovery(storyId: number, messageId: number, signal?: AbortSignal, timeoutMs = RECOVERY_TIMEOUT_MS): Promise<RecoveredStory> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const abort = () => controller.abort();
  signal?.addEventListener('abort', abort);
  try {
    const response = await apiFetch(`/api/story/${storyId}/recover?messageId=${messageId}`, { signal: controller.signal });
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
