// The story's versions (the story-versions feature over this tab's story session) against a scripted
// API: undo, redo and erase put the server's story on screen (pictures and redo included, rows
// keeping their local ids), edits and version choices change one message, a stale edit shows the
// current version and says so, and failures carry the server's message. Nothing changes on screen
// before the server has answered.
import { describe, expect, it, vi } from 'vitest';
import type { StoryMessage, StoryStateResponse } from '@shared/schemas/story';
import { ApiRequestError } from '@client/lib/api-client';
import { StaleEditError, type StoryVersionsApi } from '@client/features/story-versions';
import type { CurrentStoryState } from '../api/load-story';
import { createSessionVersions } from './story-versions-session';
import { initialStoryState, type LocalStoryMessage } from './story-state';
import { createStoryStore } from './story-store';

const at = '2026-01-01T10:00:00.000Z';
const server = (
  messageId: number,
  role: 'user' | 'assistant',
  content: string,
  extra: Partial<StoryMessage> = {},
): StoryMessage => ({ messageId, role, content, createdAt: at, isInitialMessage: messageId === 1, ...extra });
const onScreen: LocalStoryMessage[] = [
  { id: 'p', messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
  { id: 'a', messageId: 2, role: 'assistant', content: 'The tide turns.' },
  { id: 'u', messageId: 3, role: 'user', content: 'I wave' },
  { id: 'b', messageId: 4, role: 'assistant', content: 'Gulls scatter.', version: 2, versions: 3 },
];
const busy = new ApiRequestError('The narrator is still writing the last reply. Please wait for it to finish.', {
  status: 409,
  code: 'CONFLICT',
});

function setup(api: Partial<StoryVersionsApi<CurrentStoryState>> = {}) {
  const full: StoryVersionsApi<CurrentStoryState> = {
    undo: vi.fn(),
    redo: vi.fn(),
    erase: vi.fn(),
    edit: vi.fn(),
    select: vi.fn(),
    read: vi.fn(),
    ...api,
  };
  const store = createStoryStore({ ...initialStoryState, ownerId: 1, storyId: 7, messages: onScreen });
  let n = 0;
  const versions = createSessionVersions({ store, api: full, newId: () => `new${++n}`, persist: false });
  return { api: full, store, versions };
}

describe('story versions', () => {
  it('undo shows the story the server answers, with its pictures and redo, keeping the rows on screen', async () => {
    const undone: StoryStateResponse = {
      messages: [
        server(1, 'user', 'A harbour'),
        server(2, 'assistant', 'The tide turns.', { image: '/api/images/t.webp' }),
      ],
      replying: false,
      images: [
        {
          messageId: 2,
          status: 'ready',
          url: '/api/images/t.webp',
          thumbnail: '/api/images/t.thumb.webp',
          alt: 'The tide',
          width: 1024,
          height: 576,
        },
      ],
      storyImage: '/api/images/t.webp',
      canRedo: true,
    };
    const { versions, store, api } = setup({ undo: vi.fn().mockResolvedValue(undone) });
    expect(await versions.undo()).toEqual({ ok: true });
    expect(api.undo).toHaveBeenCalledWith(7);
    const state = store.getState();
    expect(state.messages.map((m) => [m.id, m.messageId])).toEqual([
      ['p', 1],
      ['a', 2],
    ]);
    expect(state.messages[1].picture).toEqual({
      status: 'ready',
      url: '/api/images/t.webp',
      thumbnail: '/api/images/t.thumb.webp',
      alt: 'The tide',
      width: 1024,
      height: 576,
    });
    expect(state).toMatchObject({ canRedo: true, storyImage: '/api/images/t.webp', error: null, isGenerating: false });
  });

  it('erase from a reply leaves its action unanswered (with Retry); redo brings the rest back', async () => {
    const erased: StoryStateResponse = {
      messages: [
        server(1, 'user', 'A harbour'),
        server(2, 'assistant', 'The tide turns.'),
        server(3, 'user', 'I wave'),
      ],
      replying: false,
      images: [],
      storyImage: null,
      canRedo: true,
    };
    const restored: StoryStateResponse = {
      ...erased,
      messages: [...erased.messages, server(4, 'assistant', 'Gulls scatter.', { version: 2, versions: 3 })],
      canRedo: false,
    };
    const { versions, store, api } = setup({
      erase: vi.fn().mockResolvedValue(erased),
      redo: vi.fn().mockResolvedValue(restored),
    });
    expect(await versions.erase(4)).toEqual({ ok: true });
    expect(api.erase).toHaveBeenCalledWith(7, 4);
    expect(store.getState()).toMatchObject({ canRedo: true, errorKind: 'turn', retry: { kind: 'retry', storyId: 7 } });
    expect(store.getState().messages.map((m) => m.content)).toEqual(['A harbour', 'The tide turns.', 'I wave']);
    await versions.redo();
    expect(store.getState().messages.at(-1)).toMatchObject({
      id: 'b',
      messageId: 4,
      content: 'Gulls scatter.',
      version: 2,
      versions: 3,
    });
    expect(store.getState()).toMatchObject({ canRedo: false, error: null, retry: null });
  });

  it('a turn undone and redone comes back as the same rows (narration does not take it for a new reply)', async () => {
    const undone: StoryStateResponse = {
      messages: [server(1, 'user', 'A harbour'), server(2, 'assistant', 'The tide turns.')],
      replying: false,
      images: [],
      storyImage: null,
      canRedo: true,
    };
    const redone: StoryStateResponse = {
      ...undone,
      messages: [...undone.messages, server(3, 'user', 'I wave'), server(4, 'assistant', 'Gulls scatter.')],
      canRedo: false,
    };
    const { versions, store } = setup({
      undo: vi.fn().mockResolvedValue(undone),
      redo: vi.fn().mockResolvedValue(redone),
    });
    await versions.undo();
    await versions.redo();
    expect(store.getState().messages.map((m) => m.id)).toEqual(['p', 'a', 'u', 'b']);
  });

  it('one read gives the messages this tab wrote their server ids, keeping their rows; a reply being written says so', async () => {
    const read = vi
      .fn()
      .mockResolvedValueOnce({
        messages: [
          { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
          { messageId: 2, role: 'assistant', content: 'The tide turns.' },
          { messageId: 3, role: 'user', content: 'I row out' },
        ],
        replying: false,
        storyImage: null,
        canRedo: false,
      })
      .mockResolvedValueOnce({ messages: [], replying: true, storyImage: null });
    const { versions, store } = setup({ read });
    store.dispatch({
      type: 'loaded',
      storyId: 7,
      messages: [
        { id: 'p', role: 'user', content: 'A harbour', isInitialMessage: true },
        onScreen[1],
        { id: 'mine', role: 'user', content: 'I row out' },
      ],
    });
    expect(await versions.resolveIds()).toEqual({ ok: true });
    expect(read).toHaveBeenCalledWith(7);
    expect(store.getState().messages.map((m) => [m.id, m.messageId])).toEqual([
      ['p', 1],
      ['a', 2],
      ['mine', 3],
    ]);
    const before = store.getState();
    expect(await versions.resolveIds()).toEqual({
      ok: false,
      unauthorized: false,
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
    });
    expect(store.getState()).toBe(before);
  });

  it('a refused undo leaves the story as it was and carries the server message', async () => {
    const { versions, store } = setup({ undo: vi.fn().mockRejectedValue(busy) });
    const before = store.getState();
    expect(await versions.undo()).toEqual({
      ok: false,
      message: 'The narrator is still writing the last reply. Please wait for it to finish.',
      unauthorized: false,
    });
    expect(store.getState()).toBe(before);
  });

  it('choosing a version shows its words, count and picture', async () => {
    const select = vi.fn().mockResolvedValue({
      messageId: 4,
      role: 'assistant',
      content: 'Gulls, first time.',
      version: 1,
      versions: 3,
      image: '/api/images/g1.webp',
    });
    const { versions, store } = setup({ select });
    expect(await versions.select(4, 1)).toEqual({ ok: true });
    expect(select).toHaveBeenCalledWith(7, 4, 1);
    expect(store.getState().messages[3]).toMatchObject({
      id: 'b',
      content: 'Gulls, first time.',
      version: 1,
      versions: 3,
      image: '/api/images/g1.webp',
      picture: { status: 'ready', url: '/api/images/g1.webp' },
    });
  });

  it('an edit is made from the version on screen and becomes the newest one', async () => {
    const edit = vi
      .fn()
      .mockResolvedValue({ messageId: 4, role: 'assistant', content: 'Gulls, edited.', version: 4, versions: 4 });
    const { versions, store } = setup({ edit });
    expect(await versions.edit(4, 'Gulls, edited.')).toEqual({ ok: true });
    expect(edit).toHaveBeenCalledWith(7, 4, { content: 'Gulls, edited.', baseVersion: 2 });
    expect(store.getState().messages[3]).toMatchObject({ content: 'Gulls, edited.', version: 4, versions: 4 });
    // A message with one version is edited from version 1.
    await versions.edit(3, 'I wave twice');
    expect(edit).toHaveBeenLastCalledWith(7, 3, { content: 'I wave twice', baseVersion: 1 });
  });

  it('a stale edit shows the version another tab made, so the next Save is made from it', async () => {
    const stale = new StaleEditError(
      new ApiRequestError(
        'This message was changed in another tab. Its current text is shown: make your change again if you still want it.',
        { status: 409, code: 'CONFLICT' },
      ),
      { version: 5, content: 'Gulls, from the other tab.' },
    );
    const edit = vi
      .fn()
      .mockRejectedValueOnce(stale)
      .mockResolvedValueOnce({ messageId: 4, role: 'assistant', content: 'Mine', version: 6, versions: 6 });
    const { versions, store } = setup({ edit });
    const outcome = await versions.edit(4, 'Mine');
    expect(outcome).toEqual({
      ok: false,
      unauthorized: false,
      message:
        'This message was changed in another tab. Its current text is shown: make your change again if you still want it.',
      current: { version: 5, content: 'Gulls, from the other tab.' },
    });
    expect(store.getState().messages[3]).toMatchObject({
      content: 'Gulls, from the other tab.',
      version: 5,
      versions: 5,
    });
    await versions.edit(4, 'Mine');
    expect(edit).toHaveBeenLastCalledWith(7, 4, { content: 'Mine', baseVersion: 5 });
  });

  it('an ended session is reported as such', async () => {
    const { versions } = setup({
      redo: vi
        .fn()
        .mockRejectedValue(new ApiRequestError('Authentication required', { status: 401, code: 'UNAUTHENTICATED' })),
    });
    expect(await versions.redo()).toMatchObject({ ok: false, unauthorized: true, message: 'Authentication required' });
  });

  it('an answer for a story no longer on screen changes nothing', async () => {
    let resolve: (value: StoryStateResponse) => void = () => {};
    const { versions, store } = setup({ undo: vi.fn(() => new Promise<StoryStateResponse>((r) => (resolve = r))) });
    const pending = versions.undo();
    store.dispatch({ type: 'loadStarted', ownerId: 1, storyId: 8 });
    const other = store.getState();
    resolve({ messages: [server(1, 'user', 'A harbour')], replying: false, images: [], storyImage: null });
    expect(await pending).toEqual({ ok: true });
    expect(store.getState()).toBe(other);
  });
});
