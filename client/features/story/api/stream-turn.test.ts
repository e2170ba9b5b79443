// Streamed story turns over fetch: deltas in order (even split across chunks), the saved reply,
// the server's error event, a dropped stream, JSON answers and the spec's helper error texts.
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { StoryTurnError } from './story-errors';
import { continueStoryTurn, startStoryTurn } from './stream-turn';

function sseResponse(chunks: string[], init: { status?: number } = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: init.status ?? 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

async function failure(promise: Promise<unknown>): Promise<StoryTurnError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StoryTurnError) return error;
    throw error;
  }
  throw new Error('expected the turn to fail');
}

describe('streamTurn', () => {
  it('posts the action asking for an event stream and hands every piece over in order', async () => {
    const whole =
      event('story', { storyId: 3 }) +
      event('delta', { text: 'The door ' }) +
      event('delta', { text: 'opens.' }) +
      event('done', { storyId: 3, messageId: 8, message: 'The door opens.' });
    const fetchMock = mockFetch(() => sseResponse([whole.slice(0, 17), whole.slice(17, 60), whole.slice(60)]));
    const pieces: string[] = [];
    const reply = await continueStoryTurn(3, 'I push the door', {
      onDelta: (text) => pieces.push(`${text}`),
      onStory: (id) => pieces.push(`story ${id}`),
    });
    expect(pieces).toEqual(['story 3', 'The door ', 'opens.']);
    expect(reply).toEqual({ storyId: 3, messageId: 8, message: 'The door opens.' });
    const [request] = fetchMock.requests;
    expect(request).toMatchObject({
      url: '/api/story/3/continue',
      method: 'POST',
      body: { message: 'I push the door' },
      credentials: 'include',
    });
    expect(request.headers.get('Accept')).toBe('text/event-stream');
    expect(request.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it("hands over the loop guard's rewrite: `rewriting`, then the reply's new whole text, then the saved reply", async () => {
    const whole =
      event('story', { storyId: 3 }) +
      event('delta', { text: 'The door opens. The door opens.' }) +
      event('rewriting', {}) +
      event('replace', { text: 'A draught carries the smell of rain.' }) +
      event('done', {
        storyId: 3,
        messageId: 8,
        message: 'A draught carries the smell of rain.',
        loopGuard: 'replaced',
      });
    mockFetch(() => sseResponse([whole]));
    const heard: string[] = [];
    const reply = await continueStoryTurn(3, 'I push the door', {
      onDelta: (text) => heard.push(`delta ${text}`),
      onRewriting: () => heard.push('rewriting'),
      onReplace: (text) => heard.push(`replace ${text}`),
    });
    expect(heard).toEqual([
      'delta The door opens. The door opens.',
      'rewriting',
      'replace A draught carries the smell of rain.',
    ]);
    expect(reply).toEqual({
      storyId: 3,
      messageId: 8,
      message: 'A draught carries the smell of rain.',
      loopGuard: 'replaced',
    });
  });

  it("rejects with the error event's message; the action counts as kept and a start names its story", async () => {
    mockFetch(() =>
      sseResponse([
        event('delta', { text: 'Half' }),
        event('error', {
          message: 'The narrator is unavailable right now. Please try again.',
          code: 'NARRATOR_UNAVAILABLE',
          storyId: 12,
          narrator: 'deep',
        }),
      ]),
    );
    const error = await failure(startStoryTurn('A harbour'));
    expect(error.message).toBe('The narrator is unavailable right now. Please try again.');
    expect(error).toMatchObject({ committed: true, storyId: 12, code: 'NARRATOR_UNAVAILABLE', narrator: 'deep' });
  });

  it('treats a stream that ends without done as interrupted, with the action kept', async () => {
    mockFetch(() => sseResponse([event('delta', { text: 'Half' })]));
    const error = await failure(continueStoryTurn(3, 'x'));
    expect(error.message).toBe('The connection was interrupted before the narrator finished. Please try again.');
    expect(error.committed).toBe(true);
  });

  it('accepts a JSON answer, and names an unreadable one', async () => {
    mockFetch(() => jsonResponse({ storyId: 3, messageId: 9, message: 'Plain' }));
    expect(await continueStoryTurn(3, 'x')).toEqual({ storyId: 3, messageId: 9, message: 'Plain' });
    mockFetch(() => jsonResponse({ nope: true }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Invalid response format');
    mockFetch(() => new Response('hello', { status: 200, headers: { 'Content-Type': 'text/plain' } }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe(
      'Server returned an invalid response format. Please try again later.',
    );
  });

  it('reports errors before the stream with the helper rules, the action not kept', async () => {
    mockFetch(() =>
      jsonResponse(
        { message: 'The narrator is still writing the last reply. Please wait for it to finish.', code: 'CONFLICT' },
        { status: 409 },
      ),
    );
    const busy = await failure(continueStoryTurn(3, 'x'));
    expect(busy).toMatchObject({
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
      status: 409,
      committed: false,
    });

    mockFetch(() => jsonResponse({ error: 'Plain string error' }, { status: 400 }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Plain string error');
    mockFetch(() => jsonResponse({ error: { message: 'Nested error' } }, { status: 422 }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Nested error');
    mockFetch(() => jsonResponse({}, { status: 418, statusText: "I'm a teapot" }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe("418 I'm a teapot");
    // A narrator's failure answered as JSON names the narrator too.
    mockFetch(() =>
      jsonResponse(
        { message: 'The narrator Deep is unavailable right now.', code: 'NARRATOR_UNAVAILABLE', narrator: 'deep' },
        { status: 502, statusText: 'Bad Gateway' },
      ),
    );
    expect(await failure(continueStoryTurn(3, 'x'))).toMatchObject({ status: 502, narrator: 'deep' });
    mockFetch(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Bad Gateway');
    mockFetch(() => new Response('oops', { status: 500 }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Server error');
    mockFetch(() => new Response('not json', { status: 404 }));
    expect((await failure(continueStoryTurn(3, 'x'))).message).toBe('Server returned an invalid response');
    mockFetch(() => jsonResponse({ message: 'Authentication required', code: 'UNAUTHENTICATED' }, { status: 401 }));
    expect(await failure(continueStoryTurn(3, 'x'))).toMatchObject({ status: 401, message: 'Authentication required' });
  });

  it('turns an unreachable server into a network error that keeps nothing', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = await failure(continueStoryTurn(3, 'x'));
    expect(error.committed).toBe(false);
    expect(error.message).toMatch(/^Failed to fetch/);
  });
});
