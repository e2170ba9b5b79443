// GET /api/story/message/{messageId}/image: a picture's state. 200 with the
// picture when ready; 404 while it is being painted (IMAGE_PENDING) or when none was asked for;
// 422 {message: reason, code: IMAGE_FAILED} when painting failed. A 200 without a usable picture
// counts as not ready, like a 404. Anything else (network, 5xx, 401) is thrown: a failed check.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { messageImageResponseSchema } from '@shared/schemas/images';
import { apiGet, isApiRequestError } from '@client/lib/api-client';
import { IMAGES_STRINGS } from '../strings';
import type { ReadyPicture } from '../types';
import { fromMessageImage } from '../utils/scene-picture';

export type MessageImageCheck =
  { status: 'ready'; picture: ReadyPicture } | { status: 'pending' } | { status: 'failed'; reason: string };

export async function fetchMessageImage(messageId: number, signal?: AbortSignal): Promise<MessageImageCheck> {
  let body: unknown;
  try {
    body = await apiGet(`/api/story/message/${messageId}/image`, { signal });
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return { status: 'pending' };
    if (isApiRequestError(error) && error.status === 422)
      return { status: 'failed', reason: error.message.trim() || IMAGES_STRINGS.generationFailed };
    throw error;
  }
  const parsed = messageImageResponseSchema.safeParse(body);
  return parsed.success ? { status: 'ready', picture: fromMessageImage(parsed.data) } : { status: 'pending' };
}

export function messageImageQueryOptions(messageId: number) {
  return queryOptions({
    queryKey: ['message-image', messageId] as const,
    queryFn: ({ signal }) => fetchMessageImage(messageId, signal),
    // A picture's state changes behind the server's back: never serve an old answer.
    staleTime: 0,
    retry: false,
    meta: { errorToast: false },
  });
}

export function useMessageImage(messageId: number, enabled = true) {
  return useQuery({ ...messageImageQueryOptions(messageId), enabled });
}
