// Reading stories: current-state through the read rules, and the recovery read with its 15 s
// timeout (shortened here), the spec's texts for HTML and broken answers, and server errors.
import { describe, expect, it } from 'vitest';
import { RECOVERY_TIMEOUT_MS } from '@shared/constants';
import { jsonResponse, mockFetch } from '@client/test/utils';
import { fetchCurrentState, fetchRecovery } from './load-story';

describe('fetchCurrentState', () => {
  it('reads the messages with no-cache read headers', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({
        messages: [
          { messageId: 1, role: 'user', content: 'Hi', createdAt: '2026-01-01T00:00:00.000Z', isInitialMessage: true },
        ],
        replying: true,
        images: [],
        storyImage: null,
      }),
    );
    expect(await fetchCurrentState(4)).toEqual({
      messages: [
        { messageId: 1, role: 'user', content: 'Hi', createdAt: '2026-01-01T00:00:00.000Z', isInitialMessage: true },
      ],
      replying: true,
      storyImage: null,
      canRedo: false,
    });
    expect(fetchMock.requests[0].url).toBe('/api/story/4/current-state');
    expect(fetchMock.requests[0].headers.get('Cache-Control')).toBe('no-cache');
  });

  it("gives each narrator reply its picture from the read's images, and the story image", async () => {
    mockFetch(() =>
      jsonResponse({
        messages: [
          { messageId: 1, role: 'user', content: 'Hi', createdAt: '2026-01-01T00:00:00.000Z', isInitialMessage: true },
          {
            messageId: 2,
            role: 'assistant',
            content: 'Hello',
            createdAt: '2026-01-01T00:00:01.000Z',
            isInitialMessage: false,
            image: '/api/images/a.webp',
          },
          {
            messageId: 4,
            role: 'assistant',
            content: 'Again',
            createdAt: '2026-01-01T00:00:02.000Z',
            isInitialMessage: false,
          },
          {
            messageId: 6,
            role: 'assistant',
            content: 'Once more',
            createdAt: '2026-01-01T00:00:03.000Z',
            isInitialMessage: false,
          },
        ],
        replying: false,
        images: [
          {
            messageId: 2,
            status: 'ready',
            url: '/api/images/a.webp',
            thumbnail: '/api/images/a.thumb.webp',
            alt: 'A harbour',
            width: 1024,
            height: 576,
          },
          { messageId: 4, status: 'pending', alt: '' },
          { messageId: 6, status: 'failed', alt: '', error: 'The painter is unavailable right now.' },
        ],
        storyImage: '/api/images/a.webp',
      }),
    );
    const state = await fetchCurrentState(4);
    expect(state.storyImage).toBe('/api/images/a.webp');
    expect(state.messages.map((m) => [m.messageId, m.image, m.picture])).toEqual([
      [1, undefined, undefined],
      [
        2,
        '/api/images/a.webp',
        {
          status: 'ready',
          url: '/api/images/a.webp',
          thumbnail: '/api/images/a.thumb.webp',
          alt: 'A harbour',
          width: 1024,
          height: 576,
        },
      ],
      [4, undefined, { status: 'pending' }],
      [6, undefined, { status: 'failed', reason: 'The painter is unavailable right now.' }],
    ]);
  });

  it("keeps what each narrator reply's shown version cost", async () => {
    const usage = { inputTokens: 1234, outputTokens: 210, cachedInputTokens: 691, costUsd: 0.0058, calls: 1 };
    mockFetch(() =>
      jsonResponse({
        messages: [
          { messageId: 1, role: 'user', content: 'Hi', createdAt: '2026-01-01T00:00:00.000Z', isInitialMessage: true },
          {
            messageId: 2,
            role: 'assistant',
            content: 'Hello',
            createdAt: '2026-01-01T00:00:01.000Z',
            isInitialMessage: false,
            usage,
          },
          {
            messageId: 3,
            role: 'assistant',
            content: 'Old',
            createdAt: '2026-01-01T00:00:02.000Z',
            isInitialMessage: false,
          },
        ],
        replying: false,
        images: [],
        storyImage: null,
      }),
    );
    const state = await fetchCurrentState(4);
    expect(state.messages.map((m) => m.usage)).toEqual([undefined, usage, undefined]);
  });
});

describe('fetchRecovery', () => {
  it('waits 15 seconds by default', () => {
    expect(RECOVERY_TIMEOUT_MS).toBe(15_000);
  });

  it('gives up after the timeout with a clear message', async () => {
    mockFetch(
      (request) =>
        new Promise<Response>((_resolve, reject) => {
          void request;
          setTimeout(() => reject(new DOMException('aborted', 'AbortError')), 200);
        }),
    );
    await expect(fetchRecovery(4, 2, undefined, 20)).rejects.toThrow(
      'The story took too long to load (15 seconds). Please try again.',
    );
  });

  it('names an HTML answer, a broken one, and passes server errors on', async () => {
    mockFetch(
      () => new Response('<!doctype html><p>proxy</p>', { status: 200, headers: { 'Content-Type': 'text/html' } }),
    );
    await expect(fetchRecovery(4, 2)).rejects.toThrow('Server returned HTML instead of JSON. Please try again later.');
    mockFetch(() => new Response('{"messages": [', { status: 200, headers: { 'Content-Type': 'application/json' } }));
    await expect(fetchRecovery(4, 2)).rejects.toThrow('Invalid response format from server. Please try again later.');
    mockFetch(() => jsonResponse({ message: 'Message not found in this story', code: 'NOT_FOUND' }, { status: 404 }));
    await expect(fetchRecovery(4, 2)).rejects.toThrow('Message not found in this story');
  });

  it('asks for the bookmarked message and normalises the answer', async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({
        messages: [{ message_id: 2, role: 'assistant', content: 'Back', created_at: '2026-01-01T00:00:00Z' }],
        story: { id: 4 },
      }),
    );
    expect(await fetchRecovery(4, 2)).toEqual({
      storyId: 4,
      messages: [
        {
          messageId: 2,
          role: 'assistant',
          content: 'Back',
          createdAt: '2026-01-01T00:00:00Z',
          isInitialMessage: false,
        },
      ],
    });
    expect(fetchMock.requests[0].url).toBe('/api/story/4/recover?messageId=2');
  });
});
