// Loading a shared story: GET /api/shared/{shareId} with a timeout and
// retries (1 s, then 2 s apart); a 4xx is the server's answer and ends the chain at once (404 shows
// 'Story not found or has been removed by its creator'); only network and server failures fall back
// to GET /api/shared/test and then to the built-in sample. Sample content always comes back marked
// as a sample, with the reason the real story could not be shown.
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  DATA_FRESH_MS,
  SHARED_STORY_LIGHT_RETRIES,
  SHARED_STORY_LIGHT_TIMEOUT_MS,
  SHARED_STORY_RETRIES,
  SHARED_STORY_RETRY_DELAYS_MS,
  SHARED_STORY_TIMEOUT_MS,
} from '@shared/constants';
import { SAMPLE_STORY } from '@shared/sample-story';
import { DEFAULT_SHARED_TITLE, SAMPLE_SHARE_ID, type SharedMessage, type SharedStory } from '@shared/schemas/sharing';
import { apiFetch } from '@client/lib/api-client';
import { SHARING_STRINGS } from '../strings';

export type SharedStoryResult =
  | { kind: 'story'; story: SharedStory }
  /** The server answered that there is nothing to show (404, or another refusal such as 429). */
  | { kind: 'unavailable'; message: string }
  /** The story could not be reached; a sample is shown instead, labelled, with the reason. */
  | { kind: 'sample'; story: SharedStory; reason: string };

/** A 4xx: an answer, never retried. */
class AnsweredError extends Error {}
/** Network, timeout, 5xx or an unreadable body: retried, then the fallback chain. */
class FailedError extends Error {}

export interface LoadOptions {
  light?: boolean;
  signal?: AbortSignal;
  /** Waits between attempts; tests pass an instant one. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function messageFrom(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as { error?: { message?: unknown }; message?: unknown };
  const nested = record.error?.message;
  if (typeof nested === 'string' && nested.trim()) return nested;
  return typeof record.message === 'string' && record.message.trim() ? record.message : null;
}

/** Unknown roles read as the narrator's, missing content as empty. */
export function normalizeSharedStory(data: unknown, shareId: string): SharedStory {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new FailedError(SHARING_STRINGS.invalidData);
  const record = data as { title?: unknown; messages?: unknown; shareId?: unknown };
  const rawMessages = Array.isArray(record.messages) ? (record.messages as unknown[]) : [];
  const messages: SharedMessage[] = rawMessages.map((raw) => {
    const m = (typeof raw === 'object' && raw !== null ? raw : {}) as {
      role?: unknown;
      content?: unknown;
      image?: unknown;
      thumbnail?: unknown;
      imageAlt?: unknown;
    };
    const message: SharedMessage = {
      role: m.role === 'user' ? 'user' : 'assistant',
      content: typeof m.content === 'string' ? m.content : '',
    };
    if (typeof m.image === 'string' && m.image) {
      message.image = m.image;
      if (typeof m.thumbnail === 'string' && m.thumbnail) message.thumbnail = m.thumbnail;
      if (typeof m.imageAlt === 'string' && m.imageAlt.trim()) message.imageAlt = m.imageAlt;
    }
    return message;
  });
  const title = typeof record.title === 'string' && record.title.trim() ? record.title : DEFAULT_SHARED_TITLE;
  return { shareId: typeof record.shareId === 'string' ? record.shareId : shareId, title, messages };
}

async function attempt(shareId: string, timeoutMs: number, outer: AbortSignal | undefined): Promise<SharedStory> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await apiFetch(`/api/shared/${encodeURIComponent(shareId)}`, { signal });
    text = await response.text();
  } catch (error) {
    if (outer?.aborted) throw error;
    throw new FailedError(SHARING_STRINGS.loadFailed);
  }
  let body: unknown;
  let parsed = true;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    parsed = false;
  }
  if (response.status === 404) throw new AnsweredError(SHARING_STRINGS.notFound);
  if (!response.ok) {
    const message = messageFrom(body) ?? SHARING_STRINGS.loadFailed;
    throw response.status < 500 ? new AnsweredError(message) : new FailedError(message);
  }
  if (!parsed) throw new FailedError(SHARING_STRINGS.invalidJson);
  return normalizeSharedStory(body, shareId);
}

async function withRetries(
  shareId: string,
  timeoutMs: number,
  retries: number,
  options: LoadOptions,
): Promise<SharedStory> {
  const sleep = options.sleep ?? defaultSleep;
  for (let tried = 0; ; tried += 1) {
    try {
      return await attempt(shareId, timeoutMs, options.signal);
    } catch (error) {
      if (!(error instanceof FailedError) || tried >= retries) throw error;
      await sleep(SHARED_STORY_RETRY_DELAYS_MS[Math.min(tried, SHARED_STORY_RETRY_DELAYS_MS.length - 1)]);
    }
  }
}

export async function loadSharedStory(shareId: string, options: LoadOptions = {}): Promise<SharedStoryResult> {
  const timeoutMs = options.light ? SHARED_STORY_LIGHT_TIMEOUT_MS : SHARED_STORY_TIMEOUT_MS;
  const retries = options.light ? SHARED_STORY_LIGHT_RETRIES : SHARED_STORY_RETRIES;
  try {
    return { kind: 'story', story: await withRetries(shareId, timeoutMs, retries, options) };
  } catch (error) {
    if (error instanceof AnsweredError) return { kind: 'unavailable', message: error.message };
    if (!(error instanceof FailedError)) throw error;
    // The sample is only a stand-in when the requested story itself is not the sample.
    if (shareId === SAMPLE_SHARE_ID) return { kind: 'sample', story: SAMPLE_STORY, reason: error.message };
    try {
      return {
        kind: 'sample',
        story: await attempt(SAMPLE_SHARE_ID, timeoutMs, options.signal),
        reason: error.message,
      };
    } catch (fallbackError) {
      if (options.signal?.aborted) throw fallbackError;
      return { kind: 'sample', story: SAMPLE_STORY, reason: error.message };
    }
  }
}

export function sharedStoryQueryOptions(shareId: string, light: boolean) {
  return queryOptions({
    queryKey: ['shared-story', shareId, light ? 'light' : 'full'] as const,
    queryFn: ({ signal }) => loadSharedStory(shareId, { light, signal }),
    staleTime: DATA_FRESH_MS,
    // The chain above has its own retries and fallbacks.
    retry: false,
    meta: { errorToast: false },
  });
}

export function useSharedStory(shareId: string, light: boolean) {
  return useQuery(sharedStoryQueryOptions(shareId, light));
}
