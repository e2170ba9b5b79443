// The story state reducer: start, streaming, send, failures (with and without the action kept),
// regenerate, loading, the helpers for bookmark ids and stable local ids, and story versions (an
// action replacing an unanswered one, version counts, a changed message and its picture, redo).
import { describe, expect, it } from 'vitest';
import {
  initialStoryState,
  lastServerMessageId,
  pendingPictureIds,
  storyReducer,
  unansweredAction,
  withStableIds,
  type LocalStoryMessage,
  type StoryAction,
  type StoryState,
} from './story-state';

const run = (actions: StoryAction[], state: StoryState = initialStoryState) => actions.reduce(storyReducer, state);
const premise: LocalStoryMessage = { id: 'p', role: 'user', content: 'A quiet harbour', isInitialMessage: true };
const reply = (messageId: number, message: string) => ({ storyId: 9, messageId, message });
const at = '2026-01-01T00:00:00.000Z';

describe('storyReducer', () => {
  it('starts with the premise only, generating and loading, then streams the opening word by word', () => {
    let state = run([{ type: 'startRequested', ownerId: 1, prompt: 'A quiet harbour', premise }]);
    expect(state).toMatchObject({
      isGenerating: true,
      isLoadingStory: true,
      storyId: null,
      messages: [premise],
      error: null,
    });
    state = run([{ type: 'delta', id: 's', text: 'The ', createdAt: at }], state);
    expect(state.isLoadingStory).toBe(false);
    expect(state.streamingId).toBe('s');
    state = run([{ type: 'delta', id: 's', text: 'tide turns.', createdAt: at }], state);
    expect(state.messages.at(-1)).toMatchObject({ id: 's', role: 'assistant', content: 'The tide turns.' });
    state = run([{ type: 'turnDone', id: 's', reply: reply(2, 'The tide turns.'), createdAt: at }], state);
    expect(state).toMatchObject({ storyId: 9, isGenerating: false, streamingId: null });
    expect(state.messages.at(-1)).toMatchObject({ id: 's', messageId: 2, content: 'The tide turns.' });
  });

  it('takes the saved reply text as final, even when no delta came (a JSON answer)', () => {
    const state = run([
      { type: 'startRequested', ownerId: 1, prompt: 'x', premise },
      { type: 'turnDone', id: 'n', reply: reply(5, 'Whole reply'), createdAt: at },
    ]);
    expect(state.messages.map((m) => m.content)).toEqual(['A quiet harbour', 'Whole reply']);
  });

  it("shows the loop guard's rewrite in place: rewriting, the new text, then the saved reply with its mark", () => {
    let state = run([
      { type: 'startRequested', ownerId: 1, prompt: 'x', premise },
      { type: 'delta', id: 's', text: 'The tide turns. The tide turns.', createdAt: at },
      { type: 'rewriting', id: 's' },
    ]);
    expect(state.messages.at(-1)).toMatchObject({
      id: 's',
      content: 'The tide turns. The tide turns.',
      rewriting: true,
    });
    state = run([{ type: 'replaced', id: 's', text: 'Gulls wheel over the quay.' }], state);
    expect(state.messages.at(-1)).toMatchObject({ id: 's', content: 'Gulls wheel over the quay.', rewriting: false });
    state = run(
      [
        {
          type: 'turnDone',
          id: 's',
          reply: { ...reply(2, 'Gulls wheel over the quay.'), loopGuard: 'replaced' as const },
          createdAt: at,
        },
      ],
      state,
    );
    expect(state.messages.at(-1)).toEqual({
      id: 's',
      messageId: 2,
      role: 'assistant',
      content: 'Gulls wheel over the quay.',
      createdAt: at,
      loopGuard: 'replaced',
    });
    // A kept reply the guard could not better: no rewrite left showing, its mark kept; a later one unmarked.
    state = run(
      [
        { type: 'delta', id: 't', text: 'Again.', createdAt: at },
        { type: 'rewriting', id: 't' },
        { type: 'turnDone', id: 't', reply: { ...reply(3, 'Again.'), loopGuard: 'marked' as const }, createdAt: at },
      ],
      state,
    );
    expect(state.messages.at(-1)).toMatchObject({ content: 'Again.', loopGuard: 'marked' });
    expect(state.messages.at(-1)).not.toHaveProperty('rewriting');
  });

  it("keeps what the done reply cost, and only a settled reply's own figures", () => {
    const usage = { inputTokens: 1234, outputTokens: 210, cachedInputTokens: 691, costUsd: 0.0058, calls: 2 };
    let state = run([
      { type: 'startRequested', ownerId: 1, prompt: 'x', premise },
      { type: 'delta', id: 's', text: 'The tide turns.', createdAt: at },
    ]);
    expect(state.messages.at(-1)).not.toHaveProperty('usage');
    state = run(
      [{ type: 'turnDone', id: 's', reply: { ...reply(2, 'The tide turns.'), usage }, createdAt: at }],
      state,
    );
    expect(state.messages.at(-1)).toMatchObject({ id: 's', messageId: 2, usage });
    // A reply the server sent no figures for has none (a JSON answer, no stream before it).
    state = run([{ type: 'turnDone', id: 'n', reply: reply(4, 'Quiet.'), createdAt: at }], state);
    expect(state.messages.at(-1)).not.toHaveProperty('usage');
    // Another version shown: its own figures when the answer has them (a chosen version), else none (an edit).
    const chosen = { ...usage, costUsd: 0.0041, calls: 1 };
    state = run(
      [{ type: 'messageChanged', messageId: 2, content: 'Then.', version: 1, versions: 2, usage: chosen }],
      state,
    );
    expect(state.messages.find((m) => m.messageId === 2)?.usage).toEqual(chosen);
    state = run([{ type: 'messageChanged', messageId: 2, content: 'Other.', version: 3, versions: 3 }], state);
    expect(state.messages.find((m) => m.messageId === 2)).not.toHaveProperty('usage');
  });

  it('adds the player action optimistically and clears an earlier error', () => {
    const failed = run([{ type: 'turnFailed', message: 'Boom', retry: null }], { ...initialStoryState, storyId: 9 });
    const state = run([{ type: 'sendRequested', message: { id: 'u', role: 'user', content: 'I wave' } }], failed);
    expect(state).toMatchObject({ isGenerating: true, error: null, errorKind: null });
    expect(state.messages.at(-1)?.content).toBe('I wave');
  });

  it('on a failure drops the half-written reply, keeps a committed action and offers its retry plan', () => {
    const state = run(
      [
        { type: 'sendRequested', message: { id: 'u', role: 'user', content: 'I wave' } },
        { type: 'delta', id: 's', text: 'Half', createdAt: at },
        {
          type: 'turnFailed',
          message: 'The narrator is unavailable right now. Please try again.',
          retry: { kind: 'retry', storyId: 9 },
        },
      ],
      { ...initialStoryState, storyId: 9 },
    );
    expect(state.messages.map((m) => m.id)).toEqual(['u']);
    expect(state).toMatchObject({ isGenerating: false, errorKind: 'turn', retry: { kind: 'retry', storyId: 9 } });
  });

  it('removes an action the server never kept', () => {
    const state = run(
      [
        { type: 'sendRequested', message: { id: 'u', role: 'user', content: 'I wave' } },
        { type: 'turnFailed', message: 'busy', retry: null, removeId: 'u' },
      ],
      { ...initialStoryState, storyId: 9 },
    );
    expect(state.messages).toEqual([]);
    expect(state.error).toBe('busy');
  });

  it('a failed start that created its story remembers the story id', () => {
    const state = run([
      { type: 'startRequested', ownerId: 1, prompt: 'x', premise },
      { type: 'turnFailed', message: 'down', retry: { kind: 'retry', storyId: 4 }, storyId: 4 },
    ]);
    expect(state).toMatchObject({ storyId: 4, isLoadingStory: false, retry: { kind: 'retry', storyId: 4 } });
  });

  it('regenerating hides the old reply, and puts it back if the new one fails', () => {
    const old: LocalStoryMessage = { id: 'a', messageId: 2, role: 'assistant', content: 'Old reply' };
    const base = { ...initialStoryState, storyId: 9, messages: [premise, old] };
    const regenerating = run([{ type: 'regenerateRequested', id: 'a' }], base);
    expect(regenerating.messages).toEqual([premise]);
    expect(regenerating.isGenerating).toBe(true);
    const failed = run(
      [
        { type: 'delta', id: 's', text: 'New', createdAt: at },
        { type: 'turnFailed', message: 'x', retry: { kind: 'retry', storyId: 9 } },
      ],
      regenerating,
    );
    expect(failed.messages).toEqual([premise, old]);
    const done = run(
      [
        { type: 'delta', id: 's', text: 'New', createdAt: at },
        { type: 'turnDone', id: 's', reply: reply(3, 'New reply'), createdAt: at },
      ],
      regenerating,
    );
    expect(done.messages.map((m) => m.content)).toEqual(['A quiet harbour', 'New reply']);
    expect(done.replaced).toBeNull();
  });

  it('keeps the messages on screen while re-reading the same story, and clears them for another', () => {
    const base = { ...initialStoryState, ownerId: 1, storyId: 9, messages: [premise] };
    expect(run([{ type: 'loadStarted', ownerId: 1, storyId: 9 }], base)).toMatchObject({
      isLoadingStory: true,
      messages: [premise],
    });
    expect(run([{ type: 'loadStarted', ownerId: 1, storyId: 10 }], base)).toMatchObject({
      isLoadingStory: true,
      messages: [],
      storyId: 10,
    });
    expect(run([{ type: 'loadStarted', ownerId: 2, storyId: 9 }], base).messages).toEqual([]);
    const failed = run(
      [
        { type: 'loadStarted', ownerId: 1, storyId: 9 },
        { type: 'loadFailed', message: 'Story not found', kind: 'load' },
      ],
      base,
    );
    expect(failed).toMatchObject({ isLoadingStory: false, error: 'Story not found', errorKind: 'load' });
  });

  it('offers Retry for a loaded story whose last action has no reply', () => {
    const state = run([{ type: 'loaded', storyId: 9, messages: [premise] }], { ...initialStoryState, storyId: 9 });
    expect(state).toMatchObject({
      errorKind: 'turn',
      error: 'The narrator has not answered your last action yet.',
      retry: { kind: 'retry', storyId: 9 },
    });
    const answered = run(
      [
        {
          type: 'loaded',
          storyId: 9,
          messages: [premise, { id: 'a', messageId: 2, role: 'assistant', content: 'Reply' }],
        },
      ],
      state,
    );
    expect(answered).toMatchObject({ error: null, errorKind: null, retry: null });
  });
});

describe('helpers', () => {
  it('lastServerMessageId skips notices and messages without a server id', () => {
    expect(
      lastServerMessageId([
        { id: 'a', messageId: 3, role: 'assistant', content: '' },
        { id: 'b', role: 'user', content: 'x' },
        { id: 'n', role: 'assistant', content: 'Note', isNotice: true },
      ]),
    ).toBe(3);
    expect(lastServerMessageId([])).toBeNull();
  });

  it('withStableIds reuses local ids by server id and makes new ones otherwise', () => {
    let n = 0;
    const result = withStableIds(
      [
        { messageId: 1, role: 'user', content: 'a' },
        { messageId: 2, role: 'assistant', content: 'b' },
      ],
      [{ id: 'keep', messageId: 1, role: 'user', content: 'a' }],
      () => `new${++n}`,
    );
    expect(result.map((m) => m.id)).toEqual(['keep', 'new1']);
  });
});

describe('scene pictures', () => {
  const opening: LocalStoryMessage = { id: 'a', messageId: 2, role: 'assistant', content: 'The tide turns.' };
  const base: StoryState = { ...initialStoryState, storyId: 9, messages: [premise, opening] };
  const ready = {
    status: 'ready',
    url: '/api/images/a.webp',
    thumbnail: '/api/images/a.thumb.webp',
    alt: 'A harbour',
  } as const;

  it('a reply that comes with imageMessageId is being painted; one with imageError has failed with that reason', () => {
    const painting = run(
      [
        { type: 'sendRequested', message: { id: 'u', role: 'user', content: 'I wave' } },
        { type: 'turnDone', id: 's', reply: { ...reply(4, 'Gulls'), imageMessageId: 4 }, createdAt: at },
      ],
      base,
    );
    expect(painting.messages.at(-1)).toMatchObject({ messageId: 4, picture: { status: 'pending' } });
    expect(painting.isGeneratingImage).toBe(true);
    expect(pendingPictureIds(painting.messages)).toEqual([4]);

    const refused = run(
      [{ type: 'turnDone', id: 't', reply: { ...reply(6, 'Waves'), imageError: 'Too many pictures' }, createdAt: at }],
      base,
    );
    expect(refused.messages.at(-1)).toMatchObject({
      messageId: 6,
      picture: { status: 'failed', reason: 'Too many pictures' },
    });
    expect(refused.isGeneratingImage).toBe(false);
  });

  it('settles a picture as ready (the message gets its image) or failed, and leaves other stories alone', () => {
    const painting = run([{ type: 'pictureRequested', messageId: 2 }], base);
    expect(painting.messages[1].picture).toEqual({ status: 'pending' });
    const done = run([{ type: 'pictureReady', messageId: 2, picture: ready }], painting);
    expect(done.messages[1]).toMatchObject({ image: '/api/images/a.webp', picture: ready });
    expect(done.isGeneratingImage).toBe(false);
    const failed = run(
      [{ type: 'pictureFailed', messageId: 2, reason: 'Image generation timed out after multiple attempts' }],
      painting,
    );
    expect(failed.messages[1]).toEqual({
      ...opening,
      picture: { status: 'failed', reason: 'Image generation timed out after multiple attempts' },
    });
    // A message not on screen (another story was opened meanwhile): nothing changes.
    expect(run([{ type: 'pictureReady', messageId: 99, picture: ready }], painting)).toBe(painting);
  });

  it('a stalled picture is no longer polled until it is asked for again', () => {
    const stalled = run(
      [
        { type: 'pictureRequested', messageId: 2 },
        { type: 'pictureStalled', messageId: 2 },
      ],
      base,
    );
    expect(stalled.messages[1].picture).toEqual({ status: 'pending', stalled: true });
    expect(pendingPictureIds(stalled.messages)).toEqual([]);
    expect(pendingPictureIds(run([{ type: 'pictureRequested', messageId: 2 }], stalled).messages)).toEqual([2]);
  });

  it("takes the story's header picture from a load, and keeps it when a read does not say", () => {
    const loaded = run(
      [
        {
          type: 'loaded',
          storyId: 9,
          messages: [premise, { ...opening, picture: ready }],
          storyImage: '/api/images/a.webp',
        },
      ],
      base,
    );
    expect(loaded.storyImage).toBe('/api/images/a.webp');
    expect(run([{ type: 'loaded', storyId: 9, messages: loaded.messages }], loaded).storyImage).toBe(
      '/api/images/a.webp',
    );
  });
});

describe('story versions', () => {
  const opening: LocalStoryMessage = { id: 'a', messageId: 2, role: 'assistant', content: 'The tide turns.' };
  const action: LocalStoryMessage = { id: 'u', messageId: 3, role: 'user', content: 'I wave' };
  const base: StoryState = { ...initialStoryState, storyId: 9, messages: [{ ...premise, messageId: 1 }, opening] };
  const painted = {
    status: 'ready',
    url: '/api/images/v1.webp',
    thumbnail: '/api/images/v1.thumb.webp',
    alt: 'Gulls over the harbour',
  } as const;

  it('a new action sent after an unanswered one takes its place: never two actions in a row', () => {
    const failed: StoryState = { ...base, messages: [...base.messages, action], canRedo: true };
    const replacing = run(
      [{ type: 'sendRequested', message: { ...action, content: 'I shout', version: 2, versions: 2 } }],
      failed,
    );
    expect(replacing.messages.map((m) => [m.id, m.messageId, m.content])).toEqual([
      ['p', 1, 'A quiet harbour'],
      ['a', 2, 'The tide turns.'],
      ['u', 3, 'I shout'],
    ]);
    expect(replacing).toMatchObject({ isGenerating: true, canRedo: false });
    // Refused before the server kept it: the earlier words come back in place.
    const refused = run(
      [{ type: 'turnFailed', message: 'busy', retry: { kind: 'retry', storyId: 9 }, restore: action }],
      replacing,
    );
    expect(refused.messages.at(-1)).toEqual(action);
    expect(refused.messages).toHaveLength(3);
  });

  it('unansweredAction names the last action without a reply, never the premise nor a notice', () => {
    expect(unansweredAction([...base.messages, action])).toBe(action);
    expect(
      unansweredAction([...base.messages, action, { id: 'n', role: 'assistant', content: 'Note', isNotice: true }]),
    ).toBe(action);
    expect(unansweredAction(base.messages)).toBeNull();
    expect(unansweredAction([premise])).toBeNull();
  });

  it("a reply that is one of several versions keeps its count; 'Try again' keeps redo, a new reply ends it", () => {
    const regenerating = run([{ type: 'regenerateRequested', id: 'a' }], { ...base, canRedo: true });
    const tried = run(
      [{ type: 'turnDone', id: 's', reply: { ...reply(2, 'Another tide.'), version: 2, versions: 2 }, createdAt: at }],
      regenerating,
    );
    expect(tried.messages.at(-1)).toMatchObject({ messageId: 2, content: 'Another tide.', version: 2, versions: 2 });
    expect(tried.canRedo).toBe(true);
    const answered = run(
      [{ type: 'retryRequested' }, { type: 'turnDone', id: 't', reply: reply(4, 'At last.'), createdAt: at }],
      { ...base, messages: [...base.messages, action], canRedo: true },
    );
    expect(answered.messages.at(-1)).not.toHaveProperty('versions');
    expect(answered.canRedo).toBe(false);
  });

  it('a changed message shows its new words and count, and the picture of the version shown', () => {
    const withPicture: StoryState = {
      ...base,
      messages: [base.messages[0], { ...opening, image: painted.url, picture: painted, version: 1, versions: 2 }],
    };
    const second = run(
      [{ type: 'messageChanged', messageId: 2, content: 'Another tide.', version: 2, versions: 2, image: null }],
      withPicture,
    );
    expect(second.messages[1]).toEqual({
      id: 'a',
      messageId: 2,
      role: 'assistant',
      content: 'Another tide.',
      version: 2,
      versions: 2,
    });
    const back = run(
      [
        {
          type: 'messageChanged',
          messageId: 2,
          content: 'The tide turns.',
          version: 1,
          versions: 2,
          image: '/api/images/v1.webp',
        },
      ],
      second,
    );
    expect(back.messages[1]).toMatchObject({
      content: 'The tide turns.',
      version: 1,
      versions: 2,
      image: '/api/images/v1.webp',
      picture: { status: 'ready', url: '/api/images/v1.webp', alt: '' },
    });
    // The same picture it already had keeps its alt text and thumbnail; undefined leaves the picture alone.
    expect(
      run(
        [{ type: 'messageChanged', messageId: 2, content: 'x', version: 1, versions: 2, image: painted.url }],
        withPicture,
      ).messages[1].picture,
    ).toEqual(painted);
    expect(
      run([{ type: 'messageChanged', messageId: 2, content: 'x', version: 3, versions: 3 }], withPicture).messages[1]
        .picture,
    ).toEqual(painted);
    // A message not on screen: nothing changes.
    expect(run([{ type: 'messageChanged', messageId: 99, content: 'x', version: 2, versions: 2 }], withPicture)).toBe(
      withPicture,
    );
  });

  it('a read (or undo, redo, erase) says whether redo has something to bring back', () => {
    const undone = run([{ type: 'loaded', storyId: 9, messages: base.messages, canRedo: true }], base);
    expect(undone.canRedo).toBe(true);
    expect(run([{ type: 'loaded', storyId: 9, messages: base.messages }], undone).canRedo).toBe(true);
    expect(run([{ type: 'loaded', storyId: 9, messages: base.messages, canRedo: false }], undone).canRedo).toBe(false);
  });

  it('withStableIds keeps the rows of messages this tab wrote (no server id yet) when the same words come back in place', () => {
    let n = 0;
    const onScreen: LocalStoryMessage[] = [
      premise,
      { id: 'r', messageId: 2, role: 'assistant', content: 'Reply' },
      { id: 'mine', role: 'user', content: 'I wave' },
    ];
    const result = withStableIds(
      [
        { messageId: 1, role: 'user', content: 'A quiet harbour' },
        { messageId: 2, role: 'assistant', content: 'Reply' },
        { messageId: 3, role: 'user', content: 'I wave' },
        { messageId: 4, role: 'assistant', content: 'Gulls' },
      ],
      onScreen,
      () => `new${++n}`,
    );
    expect(result.map((m) => [m.id, m.messageId])).toEqual([
      ['p', 1],
      ['r', 2],
      ['mine', 3],
      ['new1', 4],
    ]);
    // Other words in that place are another message.
    expect(
      withStableIds([{ messageId: 7, role: 'user', content: 'Something else' }], [premise], () => 'fresh')[0].id,
    ).toBe('fresh');
  });
});
