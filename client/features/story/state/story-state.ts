// The story client state and its pure reducer: starting, streaming a reply
// word by word, sending, retrying, regenerating, loading and failing, each narrator reply's scene
// picture (asked for, painted, failed), and the player's control over the story: the
// version a message shows, and whether redo has anything to bring back. The store and controller
// dispatch into it; tests drive it directly.
import type { LoopGuardMark, ReplyUsage, StoryReply } from '@shared/schemas/story';
import type { ReadyPicture, ScenePicture } from '@client/features/images';
import { STORY_STRINGS } from '../strings';

export type LocalRole = 'user' | 'assistant' | 'image';

export interface LocalStoryMessage {
  /** Local random id (21 alphanumeric characters), stable across reloads of the same message. */
  id: string;
  /** The server's id, once the server has it. */
  messageId?: number;
  role: LocalRole;
  content: string;
  isInitialMessage?: boolean;
  createdAt?: string;
  /** The picture's URL once painted; `picture` has its whole state. */
  image?: string;
  /** A narrator reply's scene picture: being painted, ready or failed. */
  picture?: ScenePicture;
  /** Added by the client (recovery notices): never sent anywhere, never bookmarked. */
  isNotice?: boolean;
  /** Set once the message has more than one version (alternatives, edits): the one shown, and how many. */
  version?: number;
  versions?: number;
  /** A narrator reply the loop guard acted on: written again ('replaced'), or still repeating ('marked'). */
  loopGuard?: LoopGuardMark;
  /** What a settled narrator reply (the version shown) cost, as the server priced it. */
  usage?: ReplyUsage;
  /** The reply being written repeated the story: the narrator is writing it again (never saved). */
  rewriting?: boolean;
}

/** What the Retry button of a failed turn does. */
export type RetryPlan = { kind: 'start'; prompt: string } | { kind: 'retry'; storyId: number };

export type ErrorKind = 'turn' | 'load' | 'recovery';

export interface StoryState {
  /** The user this story belongs to; another login starts from a clean slate. */
  ownerId: number | null;
  storyId: number | null;
  prompt: string | null;
  messages: LocalStoryMessage[];
  storyImage: string | null;
  isGenerating: boolean;
  /** Some narrator reply's picture is being painted. */
  isGeneratingImage: boolean;
  isLoadingStory: boolean;
  error: string | null;
  errorKind: ErrorKind | null;
  retry: RetryPlan | null;
  /** The narrator the last failed turn named (a timeout, a 5xx, a refusal), so the page can offer another. */
  failedNarrator: string | null;
  /** Local id of the narrator message being written. */
  streamingId: string | null;
  /** A reply being regenerated, kept to put back if the new one fails. */
  replaced: LocalStoryMessage | null;
  /** Undone or erased turns follow the story's end: redo would bring them back. */
  canRedo: boolean;
}

export const initialStoryState: StoryState = {
  ownerId: null,
  storyId: null,
  prompt: null,
  messages: [],
  storyImage: null,
  isGenerating: false,
  isGeneratingImage: false,
  isLoadingStory: false,
  error: null,
  errorKind: null,
  retry: null,
  failedNarrator: null,
  streamingId: null,
  replaced: null,
  canRedo: false,
};

export type StoryAction =
  | { type: 'reset'; ownerId: number | null }
  | {
      type: 'restored';
      ownerId: number;
      storyId: number | null;
      prompt: string | null;
      messages: LocalStoryMessage[];
      storyImage: string | null;
    }
  | { type: 'startRequested'; ownerId: number; prompt: string; premise: LocalStoryMessage }
  /** A message whose local id is already on screen (an unanswered action) is replaced in place. */
  | { type: 'sendRequested'; message: LocalStoryMessage }
  | { type: 'retryRequested' }
  | { type: 'regenerateRequested'; id: string }
  | { type: 'storyNamed'; storyId: number }
  | { type: 'delta'; id: string; text: string; createdAt: string }
  /** The loop guard found the streamed reply repeating the story and is asking again. */
  | { type: 'rewriting'; id: string }
  /** The streamed reply's whole text is now `text` (the loop guard's rewrite). */
  | { type: 'replaced'; id: string; text: string }
  | { type: 'turnDone'; id: string; reply: StoryReply; createdAt: string }
  /** removeId: an action the server never kept leaves; restore: an action it never replaced comes back. */
  | {
      type: 'turnFailed';
      message: string;
      retry: RetryPlan | null;
      storyId?: number;
      removeId?: string;
      restore?: LocalStoryMessage;
      /** The narrator the failure named. */
      narrator?: string;
    }
  | { type: 'loadStarted'; ownerId: number; storyId: number }
  /** awaitingReply: set by load(), true while the narrator still writes the reply to the last action. */
  /** Also the answer of undo, redo and erase: the story as it now stands. */
  | {
      type: 'loaded';
      storyId: number;
      messages: LocalStoryMessage[];
      awaitingReply?: boolean;
      storyImage?: string | null;
      canRedo?: boolean;
    }
  | { type: 'loadFailed'; message: string; kind: 'load' | 'recovery' }
  | { type: 'errorCleared' }
  /**
   * A message now shows another text (an edit, a chosen version, or the current one a stale edit
   * met). image: the shown version's painted picture, null for none, undefined to leave it as is.
   */
  | {
      type: 'messageChanged';
      messageId: number;
      content: string;
      version: number;
      versions: number;
      image?: string | null;
      usage?: ReplyUsage;
    }
  /** The painter took the job for this narrator message: its picture is being painted. */
  | { type: 'pictureRequested'; messageId: number }
  | { type: 'pictureReady'; messageId: number; picture: ReadyPicture }
  | { type: 'pictureFailed'; messageId: number; reason: string }
  /** Its status checks kept failing: shown as not loadable, no longer polled, until Retry. */
  | { type: 'pictureStalled'; messageId: number };

const idle = { isGenerating: false, isLoadingStory: false, streamingId: null, replaced: null } as const;

function anyPending(messages: LocalStoryMessage[]): boolean {
  return messages.some((m) => m.picture?.status === 'pending' && !m.picture.stalled);
}

/** The picture a finished reply comes with: being painted, or the reason it could not be asked for. */
function pictureOfReply(reply: StoryReply): ScenePicture | undefined {
  if (reply.imageMessageId !== undefined) return { status: 'pending' };
  if (reply.imageError !== undefined) return { status: 'failed', reason: reply.imageError };
  return undefined;
}

/** Sets one narrator message's picture; the state is unchanged when the message is not on screen. */
function withPicture(
  state: StoryState,
  messageId: number,
  update: (message: LocalStoryMessage) => LocalStoryMessage,
): StoryState {
  const index = state.messages.findIndex((m) => m.messageId === messageId && m.role === 'assistant' && !m.isNotice);
  if (index < 0) return state;
  const messages = state.messages.slice();
  messages[index] = update(messages[index]);
  return { ...state, messages, isGeneratingImage: anyPending(messages) };
}

/** A streamed reply as its `done` leaves it: the guard's mark is the new reply's, and the rewrite is over. */
function settledReply(streamed: LocalStoryMessage, final: LocalStoryMessage): LocalStoryMessage {
  const settled: LocalStoryMessage = { ...streamed, ...final, createdAt: streamed.createdAt ?? final.createdAt };
  delete settled.rewriting;
  if (!final.loopGuard) delete settled.loopGuard;
  if (!final.usage) delete settled.usage;
  return settled;
}

function versionOf(source: { version?: number; versions?: number }): Pick<LocalStoryMessage, 'version' | 'versions'> {
  return source.versions !== undefined && source.versions > 1
    ? { version: source.version ?? source.versions, versions: source.versions }
    : {};
}

/** Replaces one message (by server id, never a notice); the state is unchanged when it is not on screen. */
function withMessage(
  state: StoryState,
  messageId: number,
  update: (message: LocalStoryMessage) => LocalStoryMessage,
): StoryState {
  const index = state.messages.findIndex((m) => m.messageId === messageId && !m.isNotice && m.role !== 'image');
  if (index < 0) return state;
  const messages = state.messages.slice();
  messages[index] = update(messages[index]);
  return { ...state, messages, isGeneratingImage: anyPending(messages) };
}

function changedMessage(
  message: LocalStoryMessage,
  change: Extract<StoryAction, { type: 'messageChanged' }>,
): LocalStoryMessage {
  // The shown version's cost when the answer has one (a chosen version); an edit cost nothing.
  const { version: _version, versions: _versions, usage: _usage, ...rest } = message;
  const next: LocalStoryMessage = {
    ...rest,
    content: change.content,
    ...versionOf(change),
    ...(change.usage ? { usage: change.usage } : {}),
  };
  if (change.image === undefined || message.role !== 'assistant') return next;
  // Each version has its own picture: the shown one's, if it was painted (a known one keeps its alt text and thumbnail).
  const { image: _image, picture, ...bare } = next;
  if (change.image === null) return bare;
  const kept =
    picture?.status === 'ready' && picture.url === change.image
      ? picture
      : { status: 'ready' as const, url: change.image, alt: '' };
  return { ...bare, image: change.image, picture: kept };
}

export function storyReducer(state: StoryState, action: StoryAction): StoryState {
  switch (action.type) {
    case 'reset':
      return { ...initialStoryState, ownerId: action.ownerId };
    case 'restored':
      return {
        ...initialStoryState,
        ownerId: action.ownerId,
        storyId: action.storyId,
        prompt: action.prompt,
        messages: action.messages,
        storyImage: action.storyImage,
        isGeneratingImage: anyPending(action.messages),
      };
    case 'startRequested':
      // Spec: starting clears the messages and sets isGenerating and isLoadingStory.
      return {
        ...initialStoryState,
        ownerId: action.ownerId,
        prompt: action.prompt,
        messages: [action.premise],
        isGenerating: true,
        isLoadingStory: true,
      };
    case 'sendRequested': {
      const replaces = state.messages.some((m) => m.id === action.message.id);
      const messages = replaces
        ? state.messages.map((m) => (m.id === action.message.id ? action.message : m))
        : [...state.messages, action.message];
      // A new action starts a new line of the story: what was undone is gone for good.
      return {
        ...state,
        messages,
        isGenerating: true,
        error: null,
        errorKind: null,
        retry: null,
        failedNarrator: null,
        canRedo: false,
      };
    }
    case 'retryRequested':
      return {
        ...state,
        isGenerating: true,
        isLoadingStory: state.storyId === null,
        error: null,
        errorKind: null,
        retry: null,
        failedNarrator: null,
      };
    case 'regenerateRequested': {
      const target = state.messages.find((m) => m.id === action.id);
      if (!target) return state;
      return {
        ...state,
        // The old reply leaves the screen; its words stream back in anew.
        messages: state.messages.filter((m) => m.id !== action.id),
        replaced: target,
        isGenerating: true,
        error: null,
        errorKind: null,
        retry: null,
        failedNarrator: null,
      };
    }
    case 'storyNamed':
      return { ...state, storyId: action.storyId };
    case 'delta': {
      if (state.streamingId === action.id) {
        return {
          ...state,
          messages: state.messages.map((m) => (m.id === action.id ? { ...m, content: m.content + action.text } : m)),
        };
      }
      const message: LocalStoryMessage = {
        id: action.id,
        role: 'assistant',
        content: action.text,
        createdAt: action.createdAt,
      };
      return { ...state, messages: [...state.messages, message], streamingId: action.id, isLoadingStory: false };
    }
    case 'rewriting':
      return {
        ...state,
        messages: state.messages.map((m) => (m.id === action.id ? { ...m, rewriting: true } : m)),
      };
    case 'replaced':
      return {
        ...state,
        messages: state.messages.map((m) =>
          m.id === action.id ? { ...m, content: action.text, rewriting: false } : m,
        ),
      };
    case 'turnDone': {
      const picture = pictureOfReply(action.reply);
      const final: LocalStoryMessage = {
        id: action.id,
        messageId: action.reply.messageId,
        role: 'assistant',
        content: action.reply.message,
        createdAt: action.createdAt,
        ...(picture ? { picture } : {}),
        ...versionOf(action.reply),
        ...(action.reply.loopGuard ? { loopGuard: action.reply.loopGuard } : {}),
        ...(action.reply.usage ? { usage: action.reply.usage } : {}),
      };
      const exists = state.messages.some((m) => m.id === action.id);
      const messages = exists
        ? state.messages.map((m) => (m.id === action.id ? settledReply(m, final) : m))
        : [...state.messages, final];
      // A new reply message ends redo on the server; 'Try again' only adds a version of the same one.
      const canRedo = state.canRedo && state.replaced?.messageId === action.reply.messageId;
      return {
        ...state,
        ...idle,
        storyId: action.reply.storyId,
        messages,
        isGeneratingImage: anyPending(messages),
        error: null,
        errorKind: null,
        retry: null,
        failedNarrator: null,
        canRedo,
      };
    }
    case 'turnFailed': {
      // A half-written reply is not saved by the server, so it leaves the screen; a regenerated one comes back.
      let messages = state.messages.filter((m) => m.id !== state.streamingId && m.id !== action.removeId);
      const { restore } = action;
      if (restore) messages = messages.map((m) => (m.id === restore.id ? restore : m));
      if (state.replaced) messages = [...messages, state.replaced];
      return {
        ...state,
        ...idle,
        storyId: action.storyId ?? state.storyId,
        messages,
        error: action.message,
        errorKind: 'turn',
        retry: action.retry,
        failedNarrator: action.narrator ?? null,
      };
    }
    case 'loadStarted': {
      const sameStory = state.storyId === action.storyId && state.ownerId === action.ownerId;
      // Keep what is on screen for the same story (instant paint); anything else starts empty.
      const base = sameStory ? state : { ...initialStoryState, ownerId: action.ownerId, storyId: action.storyId };
      return { ...base, isLoadingStory: true, error: null, errorKind: null };
    }
    case 'loaded': {
      // A story whose last action has no reply (a failed turn, then a reload) offers Retry at once;
      // one whose reply is still being written shows the narrator thinking instead.
      const unanswered = !action.awaitingReply && action.messages[action.messages.length - 1]?.role === 'user';
      return {
        ...state,
        storyId: action.storyId,
        messages: action.messages,
        storyImage: action.storyImage === undefined ? state.storyImage : action.storyImage,
        isGeneratingImage: anyPending(action.messages),
        isLoadingStory: false,
        // Only load() says; a bookmark recovery leaves a running turn as it is.
        isGenerating: action.awaitingReply ?? state.isGenerating,
        canRedo: action.canRedo ?? state.canRedo,
        error: unanswered ? STORY_STRINGS.unanswered : null,
        errorKind: unanswered ? 'turn' : null,
        retry: unanswered ? { kind: 'retry', storyId: action.storyId } : null,
        failedNarrator: null,
      };
    }
    case 'loadFailed':
      return { ...state, ...idle, error: action.message, errorKind: action.kind };
    case 'errorCleared':
      return { ...state, error: null, errorKind: null, retry: null, failedNarrator: null };
    case 'messageChanged':
      return withMessage(state, action.messageId, (m) => changedMessage(m, action));
    case 'pictureRequested':
      return withPicture(state, action.messageId, ({ image: _old, ...m }) => ({
        ...m,
        picture: { status: 'pending' },
      }));
    case 'pictureReady':
      return withPicture(state, action.messageId, (m) => ({
        ...m,
        image: action.picture.url,
        picture: action.picture,
      }));
    case 'pictureFailed':
      return withPicture(state, action.messageId, ({ image: _old, ...m }) => ({
        ...m,
        picture: { status: 'failed', reason: action.reason },
      }));
    case 'pictureStalled':
      return withPicture(state, action.messageId, (m) =>
        m.picture?.status === 'pending' ? { ...m, picture: { status: 'pending', stalled: true } } : m,
      );
  }
}

/** Server ids of the pictures being painted and still to be polled. */
export function pendingPictureIds(messages: LocalStoryMessage[]): number[] {
  const ids: number[] = [];
  for (const m of messages)
    if (m.messageId !== undefined && m.picture?.status === 'pending' && !m.picture.stalled) ids.push(m.messageId);
  return ids;
}

/** The id the bookmark points at: the last message the server knows. */
export function lastServerMessageId(messages: LocalStoryMessage[]): number | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const id = messages[i].messageId;
    if (id !== undefined && !messages[i].isNotice) return id;
  }
  return null;
}

/**
 * Server messages keep the local id they already had on screen (matched by server id), so React
 * keeps their rows and nothing flickers when a story is re-read. Messages this tab wrote itself
 * (the premise, the player's actions) have no server id until such a read: the same words in the
 * same place are the same message.
 */
export function withStableIds(
  incoming: Array<Omit<LocalStoryMessage, 'id'>>,
  existing: LocalStoryMessage[],
  newId: () => string,
  /** Messages that were on screen earlier (undone, erased): coming back, they are the same rows. */
  earlier: Iterable<LocalStoryMessage> = [],
): LocalStoryMessage[] {
  const byServerId = new Map<number, string>();
  for (const m of earlier) if (m.messageId !== undefined) byServerId.set(m.messageId, m.id);
  for (const m of existing) if (m.messageId !== undefined) byServerId.set(m.messageId, m.id);
  const shown = existing.filter((m) => !m.isNotice);
  return incoming.map((m, index) => {
    const known = m.messageId !== undefined ? byServerId.get(m.messageId) : undefined;
    if (known !== undefined) return { ...m, id: known };
    const local = shown[index];
    const same =
      local !== undefined && local.messageId === undefined && local.role === m.role && local.content === m.content;
    return { ...m, id: same ? local.id : newId() };
  });
}

/**
 * The player's action still waiting for its reply (a failed turn), which a new action replaces
 * on the server: the last message, when it is the player's (never a notice, never the premise).
 */
export function unansweredAction(messages: LocalStoryMessage[]): LocalStoryMessage | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m.isNotice) continue;
    return m.role === 'user' && !m.isInitialMessage ? m : null;
  }
  return null;
}
