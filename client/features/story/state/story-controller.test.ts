// The story session's actions against a scripted API: streaming into the store, failures with and
// without the action kept, an action replacing an unanswered one, Retry and 'Try again' (a new
// version of the reply), loading with stable ids and redo, and the recovery guard.
import { describe, expect, it, vi } from 'vitest';
import type { StoryReply } from '@shared/schemas/story';
import { ApiRequestError } from '@client/lib/api-client';
import { StoryTurnError } from '../api/story-errors';
import type { TurnHandlers } from '../api/stream-turn';
import type { RecoveredMessage, RecoveredStory } from '../utils/recovery';
import { createStoryController, type StoryApi } from './story-controller';
import { createStoryStore } from './story-store';

function streamed(reply: StoryReply, pieces = reply.message.split(/(?<= )/)) {
  // The handlers come last, whatever the call (start(prompt, h), retry(storyId, h)).
  return async (...args: unknown[]) => {
    const handlers = args[args.length - 1] as TurnHandlers;
    for (const piece of pieces) handlers.onDelta?.(piece);
    return reply;
  };
}

function setup(overrides: Partial<StoryApi> = {}, replyPollMs = 1000) {
  let n = 0;
  const api: StoryApi = {
    start: vi.fn(streamed({ storyId: 7, messageId: 2, message: 'The tide turns.' })),
    continue: vi.fn(),
    retry: vi.fn(),
    currentState: vi.fn(),
    recover: vi.fn(),
    ...overrides,
  };
  const store = createStoryStore();
  const controller = createStoryController({
    store,
    api,
    newId: () => `id${++n}`,
    persist: false,
    replyPollMs,
    deltaFlushMs: 0,
  });
  return { api, store, controller };
}

const committedFailure = (message: string) =>
  new StoryTurnError(message, { status: 200, code: 'NARRATOR_UNAVAILABLE', committed: true });

describe('story controller', () => {
  it('starts a story, streaming the opening into the store', async () => {
    const seen: string[] = [];
    const { controller, store } = setup();
    store.subscribe(() => {
      const last = store.getState().messages.at(-1);
      if (last?.role === 'assistant') seen.push(last.content);
    });
    const outcome = await controller.start(1, 'A harbour');
    expect(outcome).toEqual({ ok: true, reply: { storyId: 7, messageId: 2, message: 'The tide turns.' } });
    expect(seen.slice(0, 2)).toEqual(['The ', 'The tide ']);
    expect(store.getState()).toMatchObject({ storyId: 7, isGenerating: false, ownerId: 1 });
    expect(store.getState().messages.map((m) => [m.role, m.content, m.messageId])).toEqual([
      ['user', 'A harbour', undefined],
      ['assistant', 'The tide turns.', 2],
    ]);
    expect(controller.isFresh(7)).toBe(true);
  });

  it('draws the first words of a reply at once and the words streamed close behind them together', async () => {
    const seen: string[] = [];
    const store = createStoryStore();
    const start = vi.fn(streamed({ storyId: 7, messageId: 2, message: 'The tide turns.' }));
    const controller = createStoryController({ store, api: { ...setup().api, start }, persist: false });
    store.subscribe(() => {
      const last = store.getState().messages.at(-1);
      if (last?.role === 'assistant') seen.push(last.content);
    });
    await controller.start(1, 'A harbour');
    expect(seen.slice(0, 2)).toEqual(['The ', 'The tide turns.']);
    expect(store.getState()).toMatchObject({ storyId: 7, isGenerating: false, streamingId: null });
    expect(store.getState().messages.at(-1)).toMatchObject({ content: 'The tide turns.', messageId: 2 });
  });

  it('knows a new story by its id as soon as the server names it, before any of the opening', async () => {
    let named: { storyId: number | null; isGenerating: boolean; messages: number } | null = null;
    const start = vi.fn(async (_prompt: string, handlers: TurnHandlers) => {
      handlers.onStory?.(7);
      const state = store.getState();
      named = { storyId: state.storyId, isGenerating: state.isGenerating, messages: state.messages.length };
      handlers.onDelta?.('The tide turns.');
      return { storyId: 7, messageId: 2, message: 'The tide turns.' };
    });
    const { controller, store } = setup({ start });
    await controller.start(1, 'A harbour');
    expect(named).toEqual({ storyId: 7, isGenerating: true, messages: 1 });
    expect(store.getState()).toMatchObject({ storyId: 7, isGenerating: false });
  });

  it('a failed start retries the start, or the story the error names', async () => {
    const start = vi
      .fn()
      .mockRejectedValueOnce(new StoryTurnError('Too many', { status: 429, code: 'ALLOWANCE_USED', committed: false }));
    const { controller, store } = setup({ start });
    const outcome = await controller.start(1, 'A harbour');
    expect(outcome).toMatchObject({ ok: false, message: 'Too many', unauthorized: false });
    expect(store.getState().retry).toEqual({ kind: 'start', prompt: 'A harbour' });

    const named = setup({
      start: vi
        .fn()
        .mockRejectedValue(new StoryTurnError('down', { status: 200, code: 'X', committed: true, storyId: 9 })),
    });
    await named.controller.start(1, 'A harbour');
    expect(named.store.getState()).toMatchObject({ storyId: 9, retry: { kind: 'retry', storyId: 9 } });
  });

  it('refuses to send without a story and hands the text back', async () => {
    const { controller } = setup();
    expect(await controller.send('Hello')).toEqual({
      ok: false,
      message: 'No active story. Please start a new story first.',
      unauthorized: false,
      restoreInput: 'Hello',
      aborted: false,
    });
  });

  it('a refused action leaves the chat and returns to the input; a kept one stays with Retry', async () => {
    const refused = new StoryTurnError('The narrator is still writing the last reply. Please wait for it to finish.', {
      status: 409,
      code: 'CONFLICT',
      committed: false,
    });
    const cont = vi
      .fn()
      .mockRejectedValueOnce(refused)
      .mockRejectedValueOnce(committedFailure('The narrator is unavailable right now. Please try again.'));
    const retry = vi.fn(streamed({ storyId: 7, messageId: 5, message: 'Second try.' }));
    const { controller, store, api } = setup({ continue: cont, retry });
    await controller.start(1, 'A harbour');

    const first = await controller.send('I wave');
    expect(first).toMatchObject({ ok: false, restoreInput: 'I wave' });
    expect(store.getState().messages.map((m) => m.content)).toEqual(['A harbour', 'The tide turns.']);
    expect(store.getState().retry).toBeNull();

    const second = await controller.send('I wave');
    expect(second).toMatchObject({
      ok: false,
      restoreInput: null,
      message: 'The narrator is unavailable right now. Please try again.',
    });
    expect(store.getState().messages.at(-1)?.content).toBe('I wave');
    expect(store.getState()).toMatchObject({ errorKind: 'turn', retry: { kind: 'retry', storyId: 7 } });

    expect(await controller.retry()).toMatchObject({ ok: true });
    expect(api.retry).toHaveBeenCalledWith(7, expect.anything());
    expect(store.getState().messages.map((m) => m.content)).toEqual([
      'A harbour',
      'The tide turns.',
      'I wave',
      'Second try.',
    ]);
    expect(store.getState().error).toBeNull();
  });

  it('an action sent after a failed turn replaces the unanswered one, and comes back if refused', async () => {
    const cont = vi
      .fn()
      .mockRejectedValueOnce(committedFailure('The narrator is unavailable right now. Please try again.'))
      .mockRejectedValueOnce(
        new StoryTurnError('The narrator is still writing the last reply. Please wait for it to finish.', {
          status: 409,
          code: 'CONFLICT',
          committed: false,
        }),
      )
      .mockImplementationOnce(streamed({ storyId: 7, messageId: 6, message: 'The gulls answer.' }));
    const { controller, store } = setup({ continue: cont });
    await controller.start(1, 'A harbour');
    await controller.send('I wave');
    const unanswered = store.getState().messages.at(-1);

    // Refused before the server kept it: the unanswered action is as it was, Retry still there, the words back in the input.
    expect(await controller.send('I shout')).toMatchObject({ ok: false, restoreInput: 'I shout' });
    expect(store.getState().messages.at(-1)).toEqual(unanswered);
    expect(store.getState().retry).toEqual({ kind: 'retry', storyId: 7 });

    expect(await controller.send('I shout')).toMatchObject({ ok: true });
    expect(store.getState().messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'A harbour'],
      ['assistant', 'The tide turns.'],
      ['user', 'I shout'],
      ['assistant', 'The gulls answer.'],
    ]);
    expect(store.getState().messages[2]).toMatchObject({ id: unanswered?.id, version: 2, versions: 2 });
  });

  it('reports a 401 as an ended session', async () => {
    const { controller } = setup({
      continue: vi
        .fn()
        .mockRejectedValue(
          new StoryTurnError('Authentication required', { status: 401, code: 'UNAUTHENTICATED', committed: false }),
        ),
    });
    await controller.start(1, 'A harbour');
    expect(await controller.send('Hi')).toMatchObject({ ok: false, unauthorized: true, restoreInput: 'Hi' });
  });

  it("'Try again' replaces the latest reply, and puts it back on failure", async () => {
    const retry = vi
      .fn()
      .mockRejectedValueOnce(committedFailure('down'))
      .mockImplementationOnce(streamed({ storyId: 7, messageId: 3, message: 'Another opening.' }));
    const { controller, store } = setup({ retry });
    await controller.start(1, 'A harbour');
    const replyId = store.getState().messages[1].id;
    await controller.regenerate(replyId);
    expect(store.getState().messages.map((m) => m.content)).toEqual(['A harbour', 'The tide turns.']);
    expect(store.getState().error).toBe('down');
    await controller.regenerate(store.getState().messages[1].id);
    expect(store.getState().messages.map((m) => [m.content, m.messageId])).toEqual([
      ['A harbour', undefined],
      ['Another opening.', 3],
    ]);
  });

  it("'Try again' shows the new reply as the newest of its versions", async () => {
    const retry = vi.fn(streamed({ storyId: 7, messageId: 2, message: 'Another opening.', version: 2, versions: 2 }));
    const { controller, store } = setup({ retry });
    await controller.start(1, 'A harbour');
    await controller.regenerate(store.getState().messages[1].id);
    expect(store.getState().messages[1]).toMatchObject({
      messageId: 2,
      content: 'Another opening.',
      version: 2,
      versions: 2,
    });
  });

  it('a read tells whether redo has something to bring back', async () => {
    const messages: RecoveredMessage[] = [
      { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
      { messageId: 2, role: 'assistant', content: 'The tide turns.' },
    ];
    const { controller, store } = setup({
      currentState: vi.fn().mockResolvedValue({ messages, replying: false, storyImage: null, canRedo: true }),
    });
    await controller.load(1, 7);
    expect(store.getState().canRedo).toBe(true);
  });

  it('loads a story keeping local ids of messages already on screen, and reports failures', async () => {
    const messages: RecoveredMessage[] = [
      { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
      { messageId: 2, role: 'assistant', content: 'The tide turns.' },
    ];
    const currentState = vi
      .fn()
      .mockResolvedValueOnce({ messages, replying: false })
      .mockRejectedValueOnce(new ApiRequestError('Story not found', { status: 404, code: 'NOT_FOUND' }));
    const { controller, store } = setup({ currentState });
    expect(await controller.load(1, 7)).toEqual({ ok: true, storyId: 7 });
    const ids = store.getState().messages.map((m) => m.id);
    expect(await controller.load(1, 7)).toMatchObject({ ok: false, message: 'Story not found' });
    expect(store.getState()).toMatchObject({ errorKind: 'load', error: 'Story not found' });
    expect(ids).toHaveLength(2);
  });

  it('opened mid-reply, shows the narrator thinking and re-reads until the reply is saved', async () => {
    const action: RecoveredMessage[] = [
      { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
      { messageId: 2, role: 'assistant', content: 'The tide turns.' },
      { messageId: 3, role: 'user', content: 'I ring the bell' },
    ];
    const answered = [...action, { messageId: 4, role: 'assistant' as const, content: 'The bell answers.' }];
    let release: () => void = () => {};
    const currentState = vi
      .fn()
      .mockResolvedValueOnce({ messages: action, replying: true })
      .mockImplementationOnce(() => new Promise((r) => (release = () => r({ messages: answered, replying: false }))));
    const { controller, store } = setup({ currentState }, 5);
    const loading = controller.load(1, 7);
    await vi.waitFor(() => expect(currentState).toHaveBeenCalledTimes(2));
    // While the narrator writes: the action is there, no error, no Retry, the thinking indicator on.
    expect(store.getState()).toMatchObject({
      isGenerating: true,
      isLoadingStory: false,
      error: null,
      retry: null,
      streamingId: null,
    });
    expect(store.getState().messages.map((m) => m.messageId)).toEqual([1, 2, 3]);
    release();
    expect(await loading).toEqual({ ok: true, storyId: 7 });
    expect(store.getState()).toMatchObject({ isGenerating: false, error: null, retry: null });
    expect(
      store
        .getState()
        .messages.map((m) => m.content)
        .at(-1),
    ).toBe('The bell answers.');
  });

  it("opened mid-'Try again', hides the reply being rewritten and shows the new one once saved", async () => {
    const before: RecoveredMessage[] = [
      { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
      { messageId: 2, role: 'assistant', content: 'The tide turns.' },
      { messageId: 3, role: 'user', content: 'I ring the bell' },
      { messageId: 4, role: 'assistant', content: 'The bell is silent.' },
    ];
    const rewritten = [
      ...before.slice(0, 3),
      { messageId: 5, role: 'assistant' as const, content: 'The bell answers.' },
    ];
    let release: () => void = () => {};
    const currentState = vi
      .fn()
      .mockResolvedValueOnce({ messages: before, replying: true })
      .mockImplementationOnce(() => new Promise((r) => (release = () => r({ messages: rewritten, replying: false }))));
    const { controller, store } = setup({ currentState }, 5);
    const loading = controller.load(1, 7);
    await vi.waitFor(() => expect(currentState).toHaveBeenCalledTimes(2));
    expect(store.getState()).toMatchObject({ isGenerating: true, error: null, retry: null, streamingId: null });
    expect(store.getState().messages.map((m) => m.messageId)).toEqual([1, 2, 3]);
    release();
    expect(await loading).toEqual({ ok: true, storyId: 7 });
    expect(store.getState().isGenerating).toBe(false);
    expect(store.getState().messages.map((m) => m.messageId)).toEqual([1, 2, 3, 5]);
  });

  it('offers Retry for an unanswered action once nobody is writing its reply', async () => {
    const action: RecoveredMessage[] = [
      { messageId: 1, role: 'user', content: 'A harbour', isInitialMessage: true },
      { messageId: 2, role: 'assistant', content: 'The tide turns.' },
      { messageId: 3, role: 'user', content: 'I ring the bell' },
    ];
    const currentState = vi
      .fn()
      .mockResolvedValueOnce({ messages: action, replying: true })
      .mockResolvedValueOnce({ messages: action, replying: false });
    const { controller, store } = setup({ currentState }, 5);
    expect(await controller.load(1, 7)).toEqual({ ok: true, storyId: 7 });
    expect(currentState).toHaveBeenCalledTimes(2);
    expect(store.getState()).toMatchObject({
      isGenerating: false,
      error: 'The narrator has not answered your last action yet.',
      retry: { kind: 'retry', storyId: 7 },
    });
  });

  it('stops re-reading when another story is opened', async () => {
    const action: RecoveredMessage[] = [{ messageId: 3, role: 'user', content: 'I ring the bell' }];
    const other: RecoveredMessage[] = [{ messageId: 9, role: 'assistant', content: 'Elsewhere.' }];
    const currentState = vi.fn((storyId: number) =>
      Promise.resolve(
        storyId === 7
          ? { messages: action, replying: true, storyImage: null }
          : { messages: other, replying: false, storyImage: null },
      ),
    );
    const { controller, store } = setup({ currentState }, 5);
    const first = controller.load(1, 7);
    await vi.waitFor(() => expect(store.getState().isGenerating).toBe(true));
    expect(await controller.load(1, 8)).toEqual({ ok: true, storyId: 8 });
    expect(await first).toMatchObject({ ok: false, aborted: true });
    const calls = currentState.mock.calls.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(currentState.mock.calls.length).toBe(calls);
    expect(store.getState()).toMatchObject({ storyId: 8, isGenerating: false });
  });

  it('runs one recovery at a time and reports its error as a recovery error', async () => {
    let resolve: (value: RecoveredStory) => void = () => {};
    const recover = vi
      .fn()
      .mockImplementationOnce(() => new Promise<RecoveredStory>((r) => (resolve = r)))
      .mockRejectedValueOnce(new Error('Server returned HTML instead of JSON. Please try again later.'));
    const { controller, store } = setup({ recover });
    const first = controller.recover(1, 7, 2);
    expect(controller.recoveryStatus(7, 2)).toBe('pending');
    expect(await controller.recover(1, 7, 2)).toBeNull();
    expect(await controller.recover(1, 8, 3)).toBeNull();
    resolve({ storyId: 7, messages: [{ messageId: 2, role: 'assistant', content: 'Back again' }] });
    expect(await first).toEqual({ ok: true, storyId: 7 });
    expect(controller.recoveryStatus(7, 2)).toBe('success');
    expect(await controller.recover(1, 7, 2)).toMatchObject({
      ok: false,
      message: 'Server returned HTML instead of JSON. Please try again later.',
    });
    expect(store.getState().errorKind).toBe('recovery');
    expect(controller.recoveryStatus(7, 2)).toBe('error');
  });
});
