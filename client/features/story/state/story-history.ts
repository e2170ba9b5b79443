// The player's control over the story on screen (issue 12): undo and redo a turn, erase from a
// message, edit a message, show another of its versions. Each asks the server and then puts its
// answer in the story store (undo, redo and erase answer the whole story, with its pictures, as a
// read does); nothing changes on screen before the server has said yes. A failure comes back with
// the server's message; a stale edit also shows the message's current version, so the next Save
// is made from it. Messages that leave the screen keep their local ids for when redo brings them
// back (the same rows; narration does not take them for new replies). Also the one read that gives
// the messages this tab wrote their server ids. Network calls are injected so tests run without a
// server.
import { STORY_MESSAGES, type StoryStateResponse } from '@shared/schemas/story';
import type { MessageChangeResponse, MessageEditBody, StaleVersion } from '@shared/schemas/story-versions';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { editMessage, StaleEditError } from '@client/features/story-versions/api/edit-message';
import { eraseFrom } from '@client/features/story-versions/api/erase-from';
import { redoTurn } from '@client/features/story-versions/api/redo-turn';
import { selectVersion } from '@client/features/story-versions/api/select-version';
import { undoTurn } from '@client/features/story-versions/api/undo-turn';
import { STORY_VERSIONS_STRINGS } from '@client/features/story-versions/strings';
import { fetchCurrentState, toCurrentState, type CurrentStoryState } from '../api/load-story';
import { createLocalMessageId } from '../utils/message-id';
import { saveStory } from './persistence';
import { withStableIds, type LocalStoryMessage } from './story-state';
import { storyStore, type StoryStore } from './story-store';

export interface StoryHistoryApi {
  undo(storyId: number): Promise<StoryStateResponse>;
  redo(storyId: number): Promise<StoryStateResponse>;
  erase(storyId: number, fromMessageId: number): Promise<StoryStateResponse>;
  edit(storyId: number, messageId: number, body: MessageEditBody): Promise<MessageChangeResponse>;
  select(storyId: number, messageId: number, version: number): Promise<MessageChangeResponse>;
  read(storyId: number): Promise<CurrentStoryState>;
}

const defaultApi: StoryHistoryApi = {
  undo: undoTurn,
  redo: redoTurn,
  erase: eraseFrom,
  edit: editMessage,
  select: selectVersion,
  read: (storyId) => fetchCurrentState(storyId),
};

/** How many set-aside messages keep their local ids (a long run of undos). */
const EARLIER_LIMIT = 500;

export type HistoryOutcome =
  | { ok: true }
  /** current: a stale edit met this version, now on screen. */
  | { ok: false; message: string; unauthorized: boolean; current?: StaleVersion };

export interface HistoryDeps {
  store?: StoryStore;
  api?: StoryHistoryApi;
  newId?: () => string;
  persist?: boolean;
}

export function createStoryHistory(deps: HistoryDeps = {}) {
  const store = deps.store ?? storyStore;
  const api = deps.api ?? defaultApi;
  const newId = deps.newId ?? (() => createLocalMessageId());
  const persist = () => {
    if (deps.persist !== false) saveStory(store.getState());
  };

  const failure = (error: unknown): HistoryOutcome => ({
    ok: false,
    message: errorMessage(error, STORY_VERSIONS_STRINGS.failed),
    unauthorized: isApiRequestError(error) && error.status === 401,
    ...(error instanceof StaleEditError ? { current: error.current } : {}),
  });

  /** The story whose messages the request is about; null when none is on screen. */
  const currentStory = () => store.getState().storyId;
  /** Messages of this story that left the screen, by server id. */
  let earlier = { storyId: null as number | null, messages: new Map<number, LocalStoryMessage>() };

  /** The server's story replaces the one on screen; rows keep their local ids, also those coming back. */
  function show(storyId: number, answer: CurrentStoryState) {
    if (earlier.storyId !== storyId) earlier = { storyId, messages: new Map() };
    const before = store.getState().messages;
    const messages = withStableIds(answer.messages, before, newId, earlier.messages.values());
    const kept = new Set(messages.map((m) => m.id));
    for (const m of before) {
      if (m.messageId === undefined || kept.has(m.id)) continue;
      earlier.messages.delete(m.messageId);
      earlier.messages.set(m.messageId, m);
    }
    while (earlier.messages.size > EARLIER_LIMIT)
      earlier.messages.delete(earlier.messages.keys().next().value as number);
    store.dispatch({
      type: 'loaded',
      storyId,
      messages,
      awaitingReply: false,
      storyImage: answer.storyImage,
      canRedo: answer.canRedo ?? false,
    });
    persist();
  }

  /** Undo, redo and erase: the story as the server answers it. */
  async function replaceStory(call: (storyId: number) => Promise<StoryStateResponse>): Promise<HistoryOutcome> {
    const storyId = currentStory();
    if (storyId === null) return { ok: false, message: STORY_VERSIONS_STRINGS.failed, unauthorized: false };
    try {
      const answer = toCurrentState(await call(storyId));
      // The player may have opened another story meanwhile: this answer is not for the screen.
      if (store.getState().storyId === storyId) show(storyId, answer);
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  }

  async function changeMessage(
    messageId: number,
    call: (storyId: number) => Promise<MessageChangeResponse>,
  ): Promise<HistoryOutcome> {
    const storyId = currentStory();
    if (storyId === null) return { ok: false, message: STORY_VERSIONS_STRINGS.failed, unauthorized: false };
    try {
      const changed = await call(storyId);
      if (store.getState().storyId === storyId) {
        store.dispatch({
          type: 'messageChanged',
          messageId,
          content: changed.content,
          version: changed.version,
          versions: changed.versions,
          image: changed.image ?? null,
        });
        persist();
      }
      return { ok: true };
    } catch (error) {
      if (error instanceof StaleEditError && store.getState().storyId === storyId) {
        // Show what the message says now; the player's words stay in the editor for another Save.
        const shown = store.getState().messages.find((m) => m.messageId === messageId && !m.isNotice);
        const versions = Math.max(shown?.versions ?? 1, error.current.version);
        store.dispatch({
          type: 'messageChanged',
          messageId,
          content: error.current.content,
          version: error.current.version,
          versions,
        });
        persist();
      }
      return failure(error);
    }
  }

  return {
    undo: () => replaceStory((storyId) => api.undo(storyId)),
    redo: () => replaceStory((storyId) => api.redo(storyId)),
    erase: (fromMessageId: number) => replaceStory((storyId) => api.erase(storyId, fromMessageId)),

    /** Saves the player's words as the message's newest version, made from the version on screen. */
    edit(messageId: number, content: string): Promise<HistoryOutcome> {
      const shown = store.getState().messages.find((m) => m.messageId === messageId && !m.isNotice);
      return changeMessage(messageId, (storyId) =>
        api.edit(storyId, messageId, { content, baseVersion: shown?.version ?? 1 }),
      );
    },

    select: (messageId: number, version: number) =>
      changeMessage(messageId, (storyId) => api.select(storyId, messageId, version)),

    /**
     * The messages this tab wrote (the premise, the player's actions) have no server id until the
     * story is read again: one read, only when the player wants to act on one of them.
     */
    async resolveIds(): Promise<HistoryOutcome> {
      const { storyId, isGenerating } = store.getState();
      if (storyId === null || isGenerating) return { ok: true };
      try {
        const answer = await api.read(storyId);
        if (answer.replying) return { ok: false, message: STORY_MESSAGES.busy, unauthorized: false };
        const now = store.getState();
        if (now.storyId === storyId && !now.isGenerating) show(storyId, answer);
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
export type StoryHistory = ReturnType<typeof createStoryHistory>;

export const storyHistory = createStoryHistory();
