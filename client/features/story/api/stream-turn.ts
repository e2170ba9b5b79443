// One story turn over fetch (start, continue or retry). EventSource cannot POST, so the body is
// read as a stream and parsed with eventsource-parser: `story` names the story (onStory), `delta`
// pieces go to onDelta as they come, `rewriting` and `replace` say the loop guard is writing the
// reply again and then its new text (onRewriting, onReplace), `done` resolves with the saved reply,
// `error` rejects with the server's message. A JSON answer (a server or proxy that does not stream) is accepted too.
import { createParser } from 'eventsource-parser';
import {
  storyDoneEventSchema,
  storyErrorEventSchema,
  storyNamedEventSchema,
  storyReplaceEventSchema,
  STORY_STREAM_EVENTS,
  type StoryReply,
} from '@shared/schemas/story';
import { apiFetch, CLIENT_ERROR_CODES } from '@client/lib/api-client';
import { STORY_API_MESSAGES, STORY_STRINGS } from '../strings';
import { StoryTurnError, storyErrorFromResponse } from './story-errors';

export interface TurnHandlers {
  /** The story's id, as soon as the server names it (before any text of a new story). */
  onStory?: (storyId: number) => void;
  onDelta?: (text: string) => void;
  /** The finished reply repeated the story: the narrator is writing it again. */
  onRewriting?: () => void;
  /** The reply's whole text is now this (the rewrite). */
  onReplace?: (text: string) => void;
  signal?: AbortSignal;
}

const invalid = (message: string, status: number, committed: boolean) =>
  new StoryTurnError(message, { status, code: CLIENT_ERROR_CODES.invalidResponse, committed });

export async function streamTurn(path: string, body: unknown, handlers: TurnHandlers = {}): Promise<StoryReply> {
  let response: Response;
  try {
    response = await apiFetch(path, { method: 'POST', body, accept: 'text/event-stream', signal: handlers.signal });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    const message = error instanceof Error ? error.message : STORY_API_MESSAGES.serverError;
    throw new StoryTurnError(message, { status: 0, code: CLIENT_ERROR_CODES.network, committed: false });
  }
  if (!response.ok) throw await storyErrorFromResponse(response);

  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  if (type.includes('application/json')) {
    const parsed = storyDoneEventSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success) throw invalid(STORY_API_MESSAGES.invalidSuccessBody, response.status, true);
    return parsed.data;
  }
  if (!type.includes('text/event-stream') || !response.body)
    throw invalid(STORY_API_MESSAGES.nonJsonOnSend, response.status, false);
  return readEvents(response.body, response.status, handlers);
}

async function readEvents(
  stream: ReadableStream<Uint8Array>,
  status: number,
  { onDelta, onStory, onRewriting, onReplace }: TurnHandlers,
): Promise<StoryReply> {
  let outcome: { reply: StoryReply } | { error: StoryTurnError } | null = null;
  const parser = createParser({
    onEvent(event) {
      if (outcome) return;
      let data: unknown;
      try {
        data = JSON.parse(event.data) as unknown;
      } catch {
        outcome = { error: invalid(STORY_API_MESSAGES.invalidSuccessBody, status, true) };
        return;
      }
      if (event.event === STORY_STREAM_EVENTS.story) {
        const named = storyNamedEventSchema.safeParse(data);
        if (named.success) onStory?.(named.data.storyId);
      } else if (event.event === STORY_STREAM_EVENTS.delta) {
        const piece = (data as { text?: unknown } | null)?.text;
        if (typeof piece === 'string') onDelta?.(piece);
      } else if (event.event === STORY_STREAM_EVENTS.rewriting) {
        onRewriting?.();
      } else if (event.event === STORY_STREAM_EVENTS.replace) {
        const replaced = storyReplaceEventSchema.safeParse(data);
        if (replaced.success) onReplace?.(replaced.data.text);
      } else if (event.event === STORY_STREAM_EVENTS.done) {
        const done = storyDoneEventSchema.safeParse(data);
        outcome = done.success
          ? { reply: done.data }
          : { error: invalid(STORY_API_MESSAGES.invalidSuccessBody, status, true) };
      } else if (event.event === STORY_STREAM_EVENTS.error) {
        const failure = storyErrorEventSchema.safeParse(data);
        outcome = {
          error: failure.success
            ? new StoryTurnError(failure.data.message, {
                status,
                code: failure.data.code,
                committed: true,
                storyId: failure.data.storyId,
                narrator: failure.data.narrator,
              })
            : invalid(STORY_API_MESSAGES.invalidSuccessBody, status, true),
        };
      }
    },
  });
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (outcome) break;
    }
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    // The connection died mid-reply: the action is on the server, so Retry can answer it.
    throw new StoryTurnError(STORY_STRINGS.streamInterrupted, {
      status,
      code: CLIENT_ERROR_CODES.network,
      committed: true,
    });
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const result = outcome as { reply: StoryReply } | { error: StoryTurnError } | null;
  if (!result)
    throw new StoryTurnError(STORY_STRINGS.streamInterrupted, {
      status,
      code: CLIENT_ERROR_CODES.network,
      committed: true,
    });
  if ('error' in result) throw result.error;
  return result.reply;
}

export function startStoryTurn(prompt: string, handlers?: TurnHandlers): Promise<StoryReply> {
  return streamTurn('/api/story/start', { prompt }, handlers);
}

export function continueStoryTurn(storyId: number, message: string, handlers?: TurnHandlers): Promise<StoryReply> {
  return streamTurn(`/api/story/${storyId}/continue`, { message }, handlers);
}

export function retryStoryTurn(storyId: number, handlers?: TurnHandlers): Promise<StoryReply> {
  return streamTurn(`/api/story/${storyId}/retry`, {}, handlers);
}
