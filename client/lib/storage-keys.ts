// Every browser-storage key the client uses, in one place, so features never collide on a name and
// logout can clear exactly the user's data.
import { THEME_STORAGE_KEY } from '@shared/constants';

export const LOCAL_STORAGE_KEYS = {
  /** Id of the signed-in user; while it exists the session is re-checked every 30 s. */
  userId: 'taleweaver-user-id',
  /** Light / dark / system; the name is the spec's and theme-init.js reads the same key. */
  theme: THEME_STORAGE_KEY,
  /** A story start a guest asked for before logging in: {type:'start_story', data, path}. */
  pendingOperation: 'taleweaver-pending-operation',
  /** A turn a guest typed before logging in: {type:'continue_story', storyId, message, path}. */
  pendingContinuation: 'taleweaver-pending-continuation',
  /** The story on screen (messages, storyId, storyImage, prompt), restored after a reload. */
  currentStory: 'taleweaver-current-story',
  /** Ad frequency preferences; device settings, so logout keeps them. */
  adSettings: 'taleweaver-ad-settings',
  /** Narration on or off and the chosen voice; device settings (voices belong to the browser), so logout keeps them. */
  narrationSettings: 'taleweaver-narration-settings',
} as const;

export const SESSION_STORAGE_KEYS = {
  /** Prefills the login form after the session expires; per tab, never a password. */
  lastLoginUsername: 'taleweaver-last-login-username',
} as const;

/** An action being typed on a story page, per story and tab, so a reload never loses it. */
export function storyDraftKey(storyId: number): string {
  return `taleweaver-draft-${storyId}`;
}

/** What logout removes: everything tied to the person, not the device's theme, ad or narration settings. */
export const USER_LOCAL_STORAGE_KEYS = [
  LOCAL_STORAGE_KEYS.userId,
  LOCAL_STORAGE_KEYS.pendingOperation,
  LOCAL_STORAGE_KEYS.pendingContinuation,
  LOCAL_STORAGE_KEYS.currentStory,
] as const;
