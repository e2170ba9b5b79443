// The hostile player's moves for bench:abuse, over the public API as the browser makes them:
// import a story file, start a story and send an action over SSE, read a story's message ids,
// paint a reply's picture and share a story. Each answers the server's Answer (status, size, time)
// so a case can report a refusal (400, 413, 429) instead of failing on it.
import type { Answer, HttpClient } from './abuse-harness';

export interface Player {
  http: HttpClient;
  cookie: string;
}

/** What Chromium sends: the server answers it with brotli, made on the request's own time. */
export const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';

function json<T>(answer: Answer): T | null {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    return null;
  }
}

/** POST /api/story/import: the new story's id when it answered 201. */
export async function importStory(
  player: Player,
  body: string,
  timeoutMs?: number,
): Promise<{ answer: Answer; storyId: number | null }> {
  const answer = await player.http.call('/api/story/import', {
    cookie: player.cookie,
    json: body,
    keepBody: true,
    timeoutMs,
  });
  return { answer, storyId: answer.status === 201 ? (json<{ storyId: number }>(answer)?.storyId ?? null) : null };
}

/** Like importStory, for setup: a refusal there means the case cannot run, so it throws. */
export async function importOrThrow(player: Player, body: string): Promise<number> {
  const { answer, storyId } = await importStory(player, body);
  if (storyId === null)
    throw new Error(`setup import answered ${answer.status}: ${answer.error ?? answer.text.slice(0, 200)}`);
  return storyId;
}

/** A turn over SSE (continue): ok only when the `done` event came. */
export async function sendAction(
  player: Player,
  storyId: number,
  message: string,
  timeoutMs?: number,
): Promise<{ answer: Answer; ok: boolean }> {
  const answer = await player.http.call(`/api/story/${storyId}/continue`, {
    cookie: player.cookie,
    json: { message },
    accept: 'text/event-stream',
    keepBody: true,
    timeoutMs,
  });
  return { answer, ok: answer.status === 200 && answer.text.includes('event: done') };
}

/** A story start over SSE: the new story's id and opening reply's id when the `done` event came. */
export async function startStory(
  player: Player,
  prompt: string,
): Promise<{ answer: Answer; storyId: number | null; replyId: number | null }> {
  const answer = await player.http.call('/api/story/start', {
    cookie: player.cookie,
    json: { prompt },
    accept: 'text/event-stream',
    keepBody: true,
  });
  const done = /event: done\ndata: (\{.*\})/.exec(answer.text);
  const reply = done ? (JSON.parse(done[1]) as { storyId: number; messageId: number }) : null;
  return { answer, storyId: reply?.storyId ?? null, replyId: reply?.messageId ?? null };
}

/** The story's shown messages (ids and roles), from GET current-state. */
export async function messageIds(
  player: Player,
  storyId: number,
): Promise<Array<{ messageId: number; role: string; isInitialMessage: boolean }>> {
  const answer = await player.http.call(`/api/story/${storyId}/current-state`, {
    cookie: player.cookie,
    keepBody: true,
  });
  const state = json<{ messages: Array<{ messageId: number; role: string; isInitialMessage: boolean }> }>(answer);
  if (!state) throw new Error(`current-state answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return state.messages.map(({ messageId, role, isInitialMessage }) => ({ messageId, role, isInitialMessage }));
}

/** Asks for a reply's picture and waits (long-polling its state) until it is painted. */
export async function paintReply(
  player: Player,
  storyId: number,
  replyId: number,
  deadlineMs = 120_000,
): Promise<void> {
  const asked = await player.http.call(`/api/story/message/${replyId}/generate-image`, {
    cookie: player.cookie,
    json: { storyId, content: 'the harbour at night' },
  });
  if (asked.status !== 200 && asked.status !== 202)
    throw new Error(`generate-image answered ${asked.status}: ${asked.text}`);
  const deadline = performance.now() + deadlineMs;
  while (performance.now() < deadline) {
    const state = await player.http.call(`/api/story/message/${replyId}/image`, { cookie: player.cookie });
    if (state.status === 200) return;
    if (state.status !== 404) throw new Error(`the picture's state answered ${state.status}: ${state.text}`);
  }
  throw new Error(`the picture was not painted in ${deadlineMs / 1000} s`);
}

/** POST share: the share id when it answered 201. */
export async function share(player: Player, storyId: number): Promise<{ answer: Answer; shareId: string | null }> {
  const answer = await player.http.call(`/api/story/${storyId}/share`, {
    cookie: player.cookie,
    json: { title: 'Shared by the benchmark' },
    keepBody: true,
  });
  return { answer, shareId: answer.status === 201 ? (json<{ shareId: string }>(answer)?.shareId ?? null) : null };
}

/** A shared story's first picture address (GET /api/shared/{id}), or null when it shows none. */
export async function sharedPicture(player: Player, shareId: string): Promise<string | null> {
  const answer = await player.http.call(`/api/shared/${shareId}`, { keepBody: true });
  const story = json<{ messages: Array<{ image?: string }> }>(answer);
  return story?.messages.find((m) => m.image)?.image ?? null;
}
