// The player's control over the story on screen: undo and redo a turn, erase from a
// message, edit a message, show another of its versions. Each asks the server and then puts its
// answer on screen through the story session (undo, redo and erase answer the whole story, with its
// pictures, as a read does); nothing changes on screen before the server has said yes. A failure
// comes back with the server's message; a stale edit also shows the message's current version, so
// the next Save is made from it. Messages that leave the screen keep their local ids for when redo
// brings them back (the same rows; narration does not take them for new replies). Also the one
// read that gives the messages this tab wrote their server ids. The story feature supplies the
// session (its store, its read) and the network calls may be injected, so tests run without a server.
import { STORY_MESSAGES, type StoryStateResponse } from '@shared/schemas/story';
import type { MessageChangeResponse, MessageEditBody, StaleVersion } from '@shared/schemas/story-versions';
import { errorMessage, isApiRequestError } from '@client/lib/api-client';
import { editMessage, StaleEditError } from '../api/edit-message';
import { eraseFrom } from '../api/erase-from';
import { redoTurn } from '../api/redo-turn';
import { selectVersion } from '../api/select-version';
import { undoTurn } from '../api/undo-turn';
import { STORY_VERSIONS_STRINGS } from '../strings';
import type { VersionedMessage, VersionsScreen } from '../types';

/** The server calls; `read` (the story as it is now) comes from the story feature. */
export interface StoryVersionsApi<Story> {
  undo(storyId: number): Promise<StoryStateResponse>;
  redo(storyId: number): Promise<StoryStateResponse>;
  erase(storyId: number, fromMessageId: number): Promise<StoryStateResponse>;
  edit(storyId: number, messageId: number, body: MessageEditBody): Promise<MessageChangeResponse>;
  select(storyId: number, messageId: number, version: number): Promise<MessageChangeResponse>;
  read(storyId: number): Promise<Story>;
}

/** The calls this feature makes itself. */
export const storyVersionsCalls: Omit<StoryVersionsApi<never>, 'read'> = {
  undo: undoTurn,
  redo: redoTurn,
  erase: eraseFrom,
  edit: editMessage,
  select: selectVersion,
};

/** One message's change, as the server answered it (or a stale edit met). */
export interface MessageChange {
  messageId: number;
  content: string;
  version: number;
  versions: number;
  /** Present when the answer says which picture the version has (null: none). */
  image?: string | null;
}

/**
 * The story on screen, as the story feature lends it: what is shown, and the two ways of changing
 * it (each also keeps the tab's saved copy up to date).
 */
export interface VersionsSession<M extends VersionedMessage, Story extends { replying: boolean }> {
  getState(): VersionsScreen<M>;
  /** A whole-story answer (undo, redo, erase) in the form `show` takes. */
  toStory(answer: StoryStateResponse): Story;
  /** The server's story replaces the one on screen; rows keep their local ids, `earlier` ones too. */
  show(storyId: number, story: Story, earlier: Iterable<M>): void;
  changeMessage(change: MessageChange): void;
}

/** How many set-aside messages keep their local ids (a long run of undos). */
const EARLIER_LIMIT = 500;

export type VersionsOutcome =
  | { ok: true }
  /** current: a stale edit met this version, now on screen. */
  | { ok: false; message: string; unauthorized: boolean; current?: StaleVersion };

export function createStoryVersions<M extends VersionedMessage, Story extends { replying: boolean }>(
  session: VersionsSession<M, Story>,
  api: StoryVersionsApi<Story>,
) {
  const failure = (error: unknown): VersionsOutcome => ({
    ok: false,
    message: errorMessage(error, STORY_VERSIONS_STRINGS.failed),
    unauthorized: isApiRequestError(error) && error.status === 401,
    ...(error instanceof StaleEditError ? { current: error.current } : {}),
  });

  /** The story whose messages the request is about; null when none is on screen. */
  const currentStory = () => session.getState().storyId;
  /** Messages of this story that left the screen, by server id. */
  let earlier = { storyId: null as number | null, messages: new Map<number, M>() };

  /** The server's story replaces the one on screen; rows keep their local ids, also those coming back. */
  function show(storyId: number, answer: Story) {
    if (earlier.storyId !== storyId) earlier = { storyId, messages: new Map() };
    const before = session.getState().messages;
    session.show(storyId, answer, earlier.messages.values());
    const kept = new Set(session.getState().messages.map((m) => m.id));
    for (const m of before) {
      if (m.messageId === undefined || kept.has(m.id)) continue;
      earlier.messages.delete(m.messageId);
      earlier.messages.set(m.messageId, m);
    }
    while (earlier.messages.size > EARLIER_LIMIT)
      earlier.messages.delete(earlier.messages.keys().next().value as number);
  }

  /** Undo, redo and erase: the story as the server answers it. */
  async function replaceStory(call: (storyId: number) => Promise<StoryStateResponse>): Promise<VersionsOutcome> {
    const storyId = currentStory();
    if (storyId === null) return { ok: false, message: STORY_VERSIONS_STRINGS.failed, unauthorized: false };
    try {
      const answer = session.toStory(await call(storyId));
      // The player may have opened another story meanwhile: this answer is not for the screen.
      if (session.getState().storyId === storyId) show(storyId, answer);
      return { ok: true };
    } catch (error) {
      return failure(error);
    }
  }

  async function changeMessage(
    messageId: number,
    call: (storyId: number) => Promise<MessageChangeResponse>,
  ): Promise<VersionsOutcome> {
    const storyId = currentStory();
    if (storyId === null) return { ok: false, message: STORY_VERSIONS_STRINGS.failed, unauthorized: false };
    try {
      const changed = await call(storyId);
      if (session.getState().storyId === storyId) {
        session.changeMessage({
          messageId,
          content: changed.content,
          version: changed.version,
          versions: changed.versions,
          image: changed.image ?? null,
        });
      }
      return { ok: true };
    } catch (error) {
      if (error instanceof StaleEditError && session.getState().storyId === storyId) {
        // Show what the message says now; the player's words stay in the editor for another Save.
        const shown = session.getState().messages.find((m) => m.messageId === messageId && !m.isNotice);
        const versions = Math.max(shown?.versions ?? 1, error.current.version);
        session.changeMessage({ messageId, content: error.current.content, version: error.current.version, versions });
      }
      return failure(error);
    }
  }

  return {
    undo: () => replaceStory((storyId) => api.undo(storyId)),
    redo: () => replaceStory((storyId) => api.redo(storyId)),
    erase: (fromMessageId: number) => replaceStory((storyId) => api.erase(storyId, fromMessageId)),

    /** Saves the player's words as the message's newest version, made from the version on screen. */
    edit(messageId: number, content: string): Promise<VersionsOutcome> {
      const shown = session.getState().messages.find((m) => m.messageId === messageId && !m.isNotice);
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
    async resolveIds(): Promise<VersionsOutcome> {
      const { storyId, isGenerating } = session.getState();
      if (storyId === null || isGenerating) return { ok: true };
      try {
        const answer = await api.read(storyId);
        if (answer.replying) return { ok: false, message: STORY_MESSAGES.busy, unauthorized: false };
        const now = session.getState();
        if (now.storyId === storyId && !now.isGenerating) show(storyId, answer);
        return { ok: true };
      } catch (error) {
        return failure(error);
      }
    },

    /** The story on screen, for the page's hook (which story, which message a menu belongs to). */
    screen: (): VersionsScreen<M> => session.getState(),
  };
}
/** The versions of one story session, whatever its messages carry besides. */
export type StoryVersions = ReturnType<typeof createStoryVersions<VersionedMessage, { replying: boolean }>>;
