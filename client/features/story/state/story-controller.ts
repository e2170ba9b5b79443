// The story session's actions: start, send, retry, regenerate, load and bookmark recovery, and the
// scene pictures' progress. Each drives the store through the reducer and returns an outcome the
// page turns into toasts, navigation or a restored input. Network calls are injected so tests run
// without a server.
import type { StoryReply } from '@shared/schemas/story';
import type { ReadyPicture } from '@client/features/images';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { STORY_STRINGS } from '../strings';
import { StoryTurnError } from '../api/story-errors';
import { continueStoryTurn, retryStoryTurn, startStoryTurn, type TurnHandlers } from '../api/stream-turn';
import { fetchCurrentState, fetchRecovery, type CurrentStoryState } from '../api/load-story';
import { createLocalMessageId } from '../utils/message-id';
import type { RecoveredStory } from '../utils/recovery';
import { createDeltaBatcher, DELTA_FLUSH_MS } from './delta-batcher';
import { saveStory } from './persistence';
import { unansweredAction, withStableIds, type LocalStoryMessage, type RetryPlan } from './story-state';
import { storyStore, type StoryStore } from './story-store';

export interface StoryApi {
  start(prompt: string, handlers: TurnHandlers): Promise<StoryReply>;
  continue(storyId: number, message: string, handlers: TurnHandlers): Promise<StoryReply>;
  retry(storyId: number, handlers: TurnHandlers): Promise<StoryReply>;
  currentState(storyId: number, signal?: AbortSignal): Promise<CurrentStoryState>;
  recover(storyId: number, messageId: number, signal?: AbortSignal): Promise<RecoveredStory>;
}

const defaultApi: StoryApi = {
  start: startStoryTurn,
  continue: continueStoryTurn,
  retry: retryStoryTurn,
  currentState: fetchCurrentState,
  recover: fetchRecovery,
};

export type TurnOutcome =
  | { ok: true; reply: StoryReply }
  /** `unauthorized`: the session ended; `restoreInput`: the action never reached the server, give it back. */
  | { ok: false; message: string; unauthorized: boolean; restoreInput: string | null; aborted: boolean };

export type LoadOutcome =
  { ok: true; storyId: number } | { ok: false; message: string; unauthorized: boolean; aborted: boolean };

export interface ControllerDeps {
  store?: StoryStore;
  api?: StoryApi;
  newId?: () => string;
  now?: () => Date;
  persist?: boolean;
  /** How often a story opened mid-reply is re-read until the reply is saved. */
  replyPollMs?: number;
  /** How long streamed pieces are held to be drawn together (0: each at once). */
  deltaFlushMs?: number;
}

/** A reload while the narrator writes: re-read about once a second until the reply is in. */
export const REPLY_POLL_MS = 1000;

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The narrator is writing: an answer to the last action, or a 'Try again' rewriting the last reply. */
function awaitingReply(state: CurrentStoryState): boolean {
  return state.replying && state.messages.length > 0;
}

/**
 * What to show while the narrator writes: a reply being rewritten ('Try again') is left out, as it
 * was before the reload, so the page shows its action and the narrator thinking, not a reply that is
 * about to go (whose own 'Try again' the server would refuse as busy).
 */
function withoutReplyInProgress(messages: CurrentStoryState['messages']): CurrentStoryState['messages'] {
  return messages[messages.length - 1]?.role === 'assistant' ? messages.slice(0, -1) : messages;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      reject(new DOMException('The load was replaced', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

export function createStoryController(deps: ControllerDeps = {}) {
  const store = deps.store ?? storyStore;
  const api = deps.api ?? defaultApi;
  const newId = deps.newId ?? (() => createLocalMessageId());
  const now = deps.now ?? (() => new Date());
  const replyPollMs = deps.replyPollMs ?? REPLY_POLL_MS;
  const deltaFlushMs = deps.deltaFlushMs ?? DELTA_FLUSH_MS;
  const persist = () => {
    if (deps.persist !== false) saveStory(store.getState());
  };
  // A story just read from the server is saved in a task of its own: writing a long story to
  // localStorage in the same task as its first render would make one long task of the two.
  let persistTimer: ReturnType<typeof setTimeout> | null = null;
  const persistSoon = () => {
    if (persistTimer !== null) return;
    persistTimer = setTimeout(() => {
      persistTimer = null;
      persist();
    }, 0);
  };
  let turn: AbortController | null = null;
  let load: AbortController | null = null;
  /** Recovery runs per story+message pair: a pending one is never started twice. */
  const recoveries = new Map<string, 'pending' | 'success' | 'error'>();
  /** Stories this tab has read from the server or written itself: reopening them needs no reload. */
  const fresh = new Set<number>();

  function beginTurn(): AbortSignal {
    turn?.abort();
    turn = new AbortController();
    return turn.signal;
  }

  /** Streams one reply into the store; the failure says how Retry continues. */
  async function runTurn(
    call: (handlers: TurnHandlers) => Promise<StoryReply>,
    onFailure: (error: unknown) => {
      retry: RetryPlan | null;
      removeId?: string;
      restore?: LocalStoryMessage;
      storyId?: number;
      restoreInput: string | null;
      fallback: string;
    },
  ): Promise<TurnOutcome> {
    const signal = beginTurn();
    const streamId = newId();
    const stamp = () => now().toISOString();
    /** The local id of the reply being written: the stream's, once its first words named it. */
    const writing = () => store.getState().streamingId ?? streamId;
    const deltas = createDeltaBatcher(
      (text) => store.dispatch({ type: 'delta', id: streamId, text, createdAt: stamp() }),
      deltaFlushMs,
    );
    try {
      const reply = await call({
        signal,
        onDelta: deltas.push,
        // The loop guard's rewrite is of the reply being written.
        onRewriting: () => {
          deltas.flush();
          store.dispatch({ type: 'rewriting', id: writing() });
        },
        onReplace: (text) => {
          deltas.flush();
          store.dispatch({ type: 'replaced', id: writing(), text });
        },
        onStory: (storyId) => {
          // A new story gets its address (and its saved copy) before its opening is written, so a
          // reload mid-opening comes back to it.
          if (store.getState().storyId === storyId) return;
          store.dispatch({ type: 'storyNamed', storyId });
          fresh.add(storyId);
          persist();
        },
      });
      deltas.flush();
      store.dispatch({ type: 'turnDone', id: writing(), reply, createdAt: stamp() });
      fresh.add(reply.storyId);
      persist();
      return { ok: true, reply };
    } catch (error) {
      // What came before the failure (or Stop) stays on screen, as every piece did when drawn alone.
      deltas.flush();
      const aborted = isAbort(error);
      const failure = onFailure(error);
      const message = errorMessage(error, failure.fallback);
      if (!aborted)
        store.dispatch({
          type: 'turnFailed',
          message,
          retry: failure.retry,
          removeId: failure.removeId,
          restore: failure.restore,
          storyId: failure.storyId,
          narrator: error instanceof StoryTurnError ? error.narrator : undefined,
        });
      persist();
      const unauthorized = isApiRequestError(error) && error.status === 401;
      return { ok: false, message, unauthorized, restoreInput: failure.restoreInput, aborted };
    } finally {
      if (turn?.signal === signal) turn = null;
    }
  }

  return {
    store,

    reset(ownerId: number | null) {
      turn?.abort();
      load?.abort();
      fresh.clear();
      store.dispatch({ type: 'reset', ownerId });
    },

    restore(
      ownerId: number,
      saved: {
        storyId: number | null;
        prompt: string | null;
        messages: LocalStoryMessage[];
        storyImage: string | null;
      },
    ) {
      store.dispatch({ type: 'restored', ownerId, ...saved });
    },

    start(ownerId: number, prompt: string): Promise<TurnOutcome> {
      load?.abort();
      store.dispatch({
        type: 'startRequested',
        ownerId,
        prompt,
        premise: { id: newId(), role: 'user', content: prompt, isInitialMessage: true, createdAt: now().toISOString() },
      });
      return runTurn(
        (handlers) => api.start(prompt, handlers),
        (error) => {
          const storyId = error instanceof StoryTurnError ? error.storyId : undefined;
          return {
            retry: storyId ? { kind: 'retry', storyId } : { kind: 'start', prompt },
            storyId,
            restoreInput: null,
            fallback: STORY_STRINGS.failedToStart,
          };
        },
      );
    },

    async send(text: string): Promise<TurnOutcome> {
      const { storyId } = store.getState();
      if (storyId === null)
        return {
          ok: false,
          message: STORY_STRINGS.noActiveStory,
          unauthorized: false,
          restoreInput: text,
          aborted: false,
        };
      // After a failed turn the server replaces the unanswered action with the new one (its
      // earlier words become an earlier version): the story never shows two actions in a row.
      const unanswered = unansweredAction(store.getState().messages);
      const message: LocalStoryMessage = unanswered
        ? {
            ...unanswered,
            content: text,
            version: (unanswered.versions ?? 1) + 1,
            versions: (unanswered.versions ?? 1) + 1,
          }
        : { id: newId(), role: 'user', content: text, createdAt: now().toISOString() };
      store.dispatch({ type: 'sendRequested', message });
      return runTurn(
        (handlers) => api.continue(storyId, text, handlers),
        (error) => {
          // Refused before the server kept the action (busy, allowance, session, network): it goes back to the input.
          const committed = error instanceof StoryTurnError ? error.committed : false;
          if (committed)
            return { retry: { kind: 'retry', storyId }, restoreInput: null, fallback: STORY_STRINGS.failedToSend };
          return unanswered
            ? {
                retry: { kind: 'retry', storyId },
                restore: unanswered,
                restoreInput: text,
                fallback: STORY_STRINGS.failedToSend,
              }
            : { retry: null, removeId: message.id, restoreInput: text, fallback: STORY_STRINGS.failedToSend };
        },
      );
    },

    /** The Retry button of a failed turn: the same action answered again, nothing to retype. */
    async retry(): Promise<TurnOutcome | null> {
      const { retry, ownerId } = store.getState();
      if (!retry) return null;
      if (retry.kind === 'start') return ownerId === null ? null : this.start(ownerId, retry.prompt);
      store.dispatch({ type: 'retryRequested' });
      return runTurn(
        (handlers) => api.retry(retry.storyId, handlers),
        () => ({ retry, restoreInput: null, fallback: STORY_STRINGS.failedToGenerate }),
      );
    },

    /** 'Try again' on the latest narrator reply: a new reply takes its place (the server keeps the old one as an earlier version). */
    async regenerate(id: string): Promise<TurnOutcome | null> {
      const { storyId, isGenerating } = store.getState();
      if (storyId === null || isGenerating) return null;
      store.dispatch({ type: 'regenerateRequested', id });
      return runTurn(
        (handlers) => api.retry(storyId, handlers),
        () => ({ retry: { kind: 'retry', storyId }, restoreInput: null, fallback: STORY_STRINGS.failedToGenerate }),
      );
    },

    async load(ownerId: number, storyId: number): Promise<LoadOutcome> {
      load?.abort();
      const controller = new AbortController();
      load = controller;
      store.dispatch({ type: 'loadStarted', ownerId, storyId });
      try {
        let state = await api.currentState(storyId, controller.signal);
        // Opened while the narrator is still writing (a reload mid-reply or mid-'Try again'): show
        // the action with 'Narrator is thinking...' and re-read until the reply is saved, rather
        // than offer a Retry or a 'Try again' the server would refuse as busy.
        while (!controller.signal.aborted && awaitingReply(state)) {
          const shown = withoutReplyInProgress(state.messages);
          store.dispatch({
            type: 'loaded',
            storyId,
            messages: withStableIds(shown, store.getState().messages, newId),
            awaitingReply: true,
            storyImage: state.storyImage,
          });
          await pause(replyPollMs, controller.signal);
          state = await api.currentState(storyId, controller.signal);
        }
        if (controller.signal.aborted) return { ok: false, message: '', unauthorized: false, aborted: true };
        store.dispatch({
          type: 'loaded',
          storyId,
          messages: withStableIds(state.messages, store.getState().messages, newId),
          awaitingReply: false,
          storyImage: state.storyImage,
          canRedo: state.canRedo ?? false,
        });
        fresh.add(storyId);
        persistSoon();
        return { ok: true, storyId };
      } catch (error) {
        if (isAbort(error) || controller.signal.aborted)
          return { ok: false, message: '', unauthorized: false, aborted: true };
        const message = errorMessage(error, STORY_STRINGS.failedToLoadBookmarked);
        store.dispatch({ type: 'loadFailed', message, kind: 'load' });
        return { ok: false, message, unauthorized: isApiRequestError(error) && error.status === 401, aborted: false };
      }
    },

    /** Opening a bookmark: skipped while this pair, or any other recovery, is pending. */
    async recover(ownerId: number, storyId: number, messageId: number): Promise<LoadOutcome | null> {
      const key = `${storyId}:${messageId}`;
      if ([...recoveries.values()].includes('pending')) return null;
      recoveries.set(key, 'pending');
      load?.abort();
      const controller = new AbortController();
      load = controller;
      store.dispatch({ type: 'loadStarted', ownerId, storyId });
      try {
        const recovered = await api.recover(storyId, messageId, controller.signal);
        const id = recovered.storyId ?? storyId;
        store.dispatch({
          type: 'loaded',
          storyId: id,
          messages: withStableIds(recovered.messages, store.getState().messages, newId),
          storyImage: recovered.storyImage,
        });
        fresh.add(id);
        persistSoon();
        recoveries.set(key, 'success');
        return { ok: true, storyId: id };
      } catch (error) {
        recoveries.set(key, 'error');
        if (isAbort(error)) return { ok: false, message: '', unauthorized: false, aborted: true };
        const message = errorMessage(error, STORY_STRINGS.failedToRecover);
        store.dispatch({ type: 'loadFailed', message, kind: 'recovery' });
        return { ok: false, message, unauthorized: isApiRequestError(error) && error.status === 401, aborted: false };
      }
    },

    /** The painter took a picture job for this narrator message: poll it. */
    pictureRequested(messageId: number) {
      store.dispatch({ type: 'pictureRequested', messageId });
      persist();
    },

    pictureReady(messageId: number, picture: ReadyPicture) {
      store.dispatch({ type: 'pictureReady', messageId, picture });
      persist();
    },

    pictureFailed(messageId: number, reason: string) {
      store.dispatch({ type: 'pictureFailed', messageId, reason });
      persist();
    },

    pictureStalled(messageId: number) {
      store.dispatch({ type: 'pictureStalled', messageId });
    },

    isFresh(storyId: number): boolean {
      return fresh.has(storyId);
    },

    recoveryStatus(storyId: number, messageId: number) {
      return recoveries.get(`${storyId}:${messageId}`) ?? null;
    },
  };
}
export type StoryController = ReturnType<typeof createStoryController>;

export const storyController = createStoryController();
