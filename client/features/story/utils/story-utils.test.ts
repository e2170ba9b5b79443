// Pure story helpers: local message ids, chat display derivation and tolerant recovery parsing.
import { describe, expect, it } from 'vitest';
import { toChatDisplayMessages } from './chat-display';
import { headerPicture } from './header-picture';
import { createLocalMessageId } from './message-id';
import { compareRecovered, normalizeRecovery, parseRecoveryBody, RecoveryError } from './recovery';

describe('createLocalMessageId', () => {
  it('makes 21 alphanumeric characters, different every time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => createLocalMessageId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{21}$/);
  });
});

describe('toChatDisplayMessages', () => {
  it('keeps local ids when some message has a server id, and adds an image entry for an illustrated reply', () => {
    const display = toChatDisplayMessages(
      [
        { id: 'u1', role: 'user', content: 'Go', messageId: 1 },
        { id: 'a1', role: 'assistant', content: 'Gone', messageId: 2, image: '/img/2.png' },
        { id: 'a2', role: 'assistant', content: 'No id yet', image: '/img/x.png' },
      ],
      1_000_000,
    );
    expect(display.map((m) => [m.id, m.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
      ['a1-image', 'image'],
      ['a2', 'assistant'],
    ]);
    expect(display[2]).toEqual({
      id: 'a1-image',
      localId: 'a1',
      role: 'image',
      content: 'Generated image',
      image: '/img/2.png',
      messageId: 2,
      picture: { status: 'ready', url: '/img/2.png', alt: '' },
    });
  });

  it("adds the 'Generating image...' placeholder for a picture being painted, and the failure as a narrator entry", () => {
    const display = toChatDisplayMessages(
      [
        { id: 'a1', role: 'assistant', content: 'Gone', messageId: 2, picture: { status: 'pending' } },
        {
          id: 'a2',
          role: 'assistant',
          content: 'Back',
          messageId: 4,
          picture: { status: 'failed', reason: 'The painter is unavailable right now.' },
        },
        { id: 'a3', role: 'assistant', content: 'Plain', messageId: 6 },
      ],
      1_000_000,
    );
    expect(display.map((m) => [m.id, m.role, m.content])).toEqual([
      ['a1', 'assistant', 'Gone'],
      ['a1-image', 'image', 'Generating image...'],
      ['a2', 'assistant', 'Back'],
      ['a2-image', 'assistant', 'Failed to generate image: The painter is unavailable right now.'],
      ['a3', 'assistant', 'Plain'],
    ]);
    expect(display.map((m) => Boolean(m.hasPicture))).toEqual([true, false, true, false, false]);
    // Without pictures on the server, only painted pictures remain.
    const quiet = toChatDisplayMessages(
      [{ id: 'a1', role: 'assistant', content: 'Gone', messageId: 2, picture: { status: 'pending' } }],
      0,
      { pictureProgress: false },
    );
    expect(quiet.map((m) => m.id)).toEqual(['a1']);
  });

  it('makes ids from the base time minus one second per position when no message has a server id', () => {
    const display = toChatDisplayMessages(
      [
        { id: 'x', role: 'user', content: 'a' },
        { id: 'y', role: 'assistant', content: 'b' },
      ],
      50_000,
    );
    expect(display.map((m) => m.id)).toEqual(['50000', '49000']);
    // The store's ids stay reachable: the streaming reply of a new story is still known as such.
    expect(display.map((m) => m.localId)).toEqual(['x', 'y']);
  });

  it("carries a narrator reply's cost figures to its bubble, and no one else's", () => {
    const usage = { inputTokens: 1234, outputTokens: 210, costUsd: 0.0058, calls: 1 };
    const display = toChatDisplayMessages(
      [
        { id: 'x', messageId: 1, role: 'user', content: 'a', usage },
        { id: 'y', messageId: 2, role: 'assistant', content: 'b', usage },
        { id: 'z', role: 'assistant', content: 'c', isNotice: true, usage },
      ],
      0,
    );
    expect(display.map((m) => m.usage)).toEqual([undefined, usage, undefined]);
  });
});

describe('recovery parsing', () => {
  it('names an HTML page, broken JSON and an empty body with the spec texts', () => {
    expect(() => parseRecoveryBody('<!DOCTYPE html><html></html>', 'text/html')).toThrow(
      'Server returned HTML instead of JSON. Please try again later.',
    );
    expect(() => parseRecoveryBody('<html>', 'application/json')).toThrow(RecoveryError);
    expect(() => parseRecoveryBody('{"messages": [', 'application/json')).toThrow(
      'Invalid response format from server. Please try again later.',
    );
    expect(() => parseRecoveryBody('', 'application/json')).toThrow('No data returned from server');
  });

  it('names missing data, missing messages and non-array messages', () => {
    expect(() => normalizeRecovery(null)).toThrow('No data returned from server');
    expect(() => normalizeRecovery({})).toThrow('No data returned from server');
    expect(() => normalizeRecovery({ story: { id: 1 } })).toThrow('No messages found in the recovered data');
    expect(() => normalizeRecovery({ messages: 'nope' })).toThrow('Invalid message format in recovered story');
  });

  it('reads snake_case and camelCase fields, images from the list, and sorts initial first, then time, then id', () => {
    const result = normalizeRecovery({
      messages: [
        { message_id: 7, role: 'assistant', content: 'Later', created_at: '2026-01-01T10:00:02Z' },
        {
          messageId: 5,
          role: 'assistant',
          content: 'Same time, lower id',
          createdAt: '2026-01-01T10:00:01Z',
          imageUrl: '/a.png',
        },
        { messageId: 6, role: 'user', content: 'Same time, higher id', createdAt: '2026-01-01T10:00:01Z' },
        { messageId: 9, role: 'user', content: 'Premise', createdAt: '2026-01-01T11:00:00Z', isInitialMessage: true },
      ],
      images: [
        { message_id: 7, url: '/b.png' },
        { messageId: 6, image: '/c.png' },
      ],
      story: { id: 42 },
    });
    expect(result.storyId).toBe(42);
    expect(result.messages.map((m) => m.content)).toEqual([
      'Premise',
      'Same time, lower id',
      'Same time, higher id',
      'Later',
    ]);
    expect(result.messages.map((m) => m.image)).toEqual([undefined, '/a.png', '/c.png', '/b.png']);
    expect(result.messages.every((m) => !m.isNotice)).toBe(true);
  });

  it('adds a notice for an empty story and for missing data', () => {
    expect(normalizeRecovery({ messages: [] }).messages).toEqual([
      {
        role: 'assistant',
        content: 'This story has no messages yet. Describe what you would like to do to begin.',
        isNotice: true,
      },
    ]);
    const partial = normalizeRecovery({
      messages: [{ messageId: 1, role: 'user', content: 'Hi' }, { role: 'assistant' }, 'junk'],
    });
    expect(partial.messages.at(-1)).toEqual({
      role: 'assistant',
      content: 'Note: This story was recovered with some missing data.',
      isNotice: true,
    });
    expect(partial.messages[1]).toMatchObject({ role: 'assistant', content: '' });
    expect(partial.storyId).toBeNull();
  });

  it('reads each picture of the images list with its status, and the story image', () => {
    const result = normalizeRecovery({
      messages: [
        { messageId: 2, role: 'assistant', content: 'Ready' },
        { messageId: 4, role: 'assistant', content: 'Painting' },
        { messageId: 6, role: 'assistant', content: 'Failed' },
      ],
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
        { messageId: 6, status: 'failed', alt: '', error: 'The painter took too long to answer.' },
      ],
      story: { id: 5, title: 'Bells', storyImage: '/api/images/a.webp' },
    });
    expect(result.storyImage).toBe('/api/images/a.webp');
    expect(result.messages.map((m) => m.picture)).toEqual([
      {
        status: 'ready',
        url: '/api/images/a.webp',
        thumbnail: '/api/images/a.thumb.webp',
        alt: 'A harbour',
        width: 1024,
        height: 576,
      },
      { status: 'pending' },
      { status: 'failed', reason: 'The painter took too long to answer.' },
    ]);
    expect(result.messages[0].image).toBe('/api/images/a.webp');
  });

  it('orders messages without times by id', () => {
    expect(
      compareRecovered({ role: 'user', content: '', messageId: 2 }, { role: 'user', content: '', messageId: 1 }),
    ).toBeGreaterThan(0);
  });
});

describe('headerPicture', () => {
  const premise = { id: 'p', role: 'user' as const, content: 'A harbour', messageId: 1 };
  it("uses the story's image, else the opening's picture, and waits while the opening's is painted", () => {
    const ready = { status: 'ready' as const, url: '/b.webp', alt: 'Bells' };
    expect(
      headerPicture([premise, { id: 'a', role: 'assistant', content: 'x', messageId: 2, picture: ready }], '/b.webp'),
    ).toEqual({ status: 'ready', url: '/b.webp', alt: 'Bells' });
    expect(
      headerPicture([premise, { id: 'a', role: 'assistant', content: 'x', messageId: 2, picture: ready }], null),
    ).toEqual({ status: 'ready', url: '/b.webp', alt: 'Bells' });
    expect(
      headerPicture(
        [premise, { id: 'a', role: 'assistant', content: 'x', messageId: 2, picture: { status: 'pending' } }],
        null,
      ),
    ).toEqual({ status: 'pending' });
    expect(
      headerPicture(
        [
          premise,
          { id: 'a', role: 'assistant', content: 'x', messageId: 2 },
          { id: 'b', role: 'assistant', content: 'y', messageId: 4, picture: ready },
        ],
        null,
      ),
    ).toEqual({ status: 'ready', url: '/b.webp', alt: 'Bells' });
    expect(
      headerPicture(
        [
          premise,
          { id: 'a', role: 'assistant', content: 'x', messageId: 2, picture: { status: 'failed', reason: 'r' } },
        ],
        null,
      ),
    ).toEqual({ status: 'none' });
  });
});
