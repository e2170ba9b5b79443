// Server-sent events for a story turn: `story` naming the story (a new one has its address before
// any text), `delta` events with the reply's pieces in order, then `done` with the saved reply, or
// `error` with the JSON error body; then the stream ends. When the loop guard finds the finished
// reply repeating the story, `rewriting` comes after the last `delta` while the narrator is asked
// again, and `replace` with the reply's new whole text before `done`. The turn runs to the end even if the
// browser disconnects, so the reply is still saved. The first words go out at once; after them the
// provider's pieces are gathered into one `delta` per COALESCE_MS, so a reply streamed a word every
// few milliseconds costs the server (and the browser) a write per frame rather than per word.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, MESSAGES } from '@server/kernel/errors';
import type { PreparedTurn } from '@server/domains/story/turns';
import type { RewriteEvent } from '@server/domains/story/loop-guard';
import { ERROR_CODES } from '@shared/schemas/common';
import {
  STORY_STREAM_EVENTS,
  type StoryErrorEvent,
  type StoryNamedEvent,
  type StoryReplaceEvent,
} from '@shared/schemas/story';

/** About a display frame and a bit: below what a reader notices, above a provider's chunk interval. */
export const COALESCE_MS = 20;

export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

export function errorEvent(error: unknown): StoryErrorEvent {
  if (error instanceof DomainError) return { message: error.message, code: error.code, ...error.extra };
  return { message: MESSAGES.internal, code: ERROR_CODES.internal };
}

export function sendTurnStream(request: FastifyRequest, reply: FastifyReply, turn: PreparedTurn) {
  const stream = new PassThrough();
  // A write racing a disconnect must not become an unhandled error.
  stream.on('error', () => {});
  const send = (event: string, data: unknown) => {
    if (!stream.destroyed && !stream.writableEnded) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  send(STORY_STREAM_EVENTS.story, { storyId: turn.storyId } satisfies StoryNamedEvent);
  let pending = '';
  let timer: NodeJS.Timeout | null = null;
  let sentFirst = false;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (pending) send(STORY_STREAM_EVENTS.delta, { text: pending });
    pending = '';
  };
  const onDelta = (text: string) => {
    if (!sentFirst) {
      sentFirst = true;
      send(STORY_STREAM_EVENTS.delta, { text });
      return;
    }
    pending += text;
    timer ??= setTimeout(flush, COALESCE_MS);
  };
  const onRewrite = (event: RewriteEvent) => {
    flush();
    if (event.kind === 'rewriting') send(STORY_STREAM_EVENTS.rewriting, {});
    else send(STORY_STREAM_EVENTS.replace, { text: event.text } satisfies StoryReplaceEvent);
  };
  void turn
    .run(onDelta, onRewrite, request.log)
    .then((done) => {
      flush();
      send(STORY_STREAM_EVENTS.done, done);
    })
    .catch((error: unknown) => {
      flush();
      if (!(error instanceof DomainError)) request.log.error({ err: error }, 'story turn failed');
      send(STORY_STREAM_EVENTS.error, errorEvent(error));
    })
    .finally(() => {
      if (!stream.destroyed) stream.end();
    });
  return reply
    .header('content-type', 'text/event-stream')
    .header('cache-control', 'no-cache, no-transform')
    .header('x-accel-buffering', 'no')
    .send(stream);
}
