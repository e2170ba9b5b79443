// The browser-side traces of a session: the saved user id (drives the 30 s session check), the last
// login username (prefills the login form after expiry; never a password) and logout's cleanup.
import { LOCAL_STORAGE_KEYS, SESSION_STORAGE_KEYS, USER_LOCAL_STORAGE_KEYS } from '@client/lib/storage-keys';
import { readItem, removeItem, writeItem } from '@client/lib/storage';

export function saveUserId(id: number): void {
  writeItem(LOCAL_STORAGE_KEYS.userId, String(id));
}

export function clearSavedUserId(): void {
  removeItem(LOCAL_STORAGE_KEYS.userId);
}

export function hasSavedUserId(): boolean {
  return readItem(LOCAL_STORAGE_KEYS.userId) !== null;
}

export function rememberLastUsername(username: string): void {
  writeItem(SESSION_STORAGE_KEYS.lastLoginUsername, username, 'session');
}

export function readLastUsername(): string {
  return readItem(SESSION_STORAGE_KEYS.lastLoginUsername, 'session') ?? '';
}

/**
 * Logout removes what belongs to the person (user id, story in progress, pending actions, the
 * remembered username); theme and ad settings belong to the device and stay.
 */
export function clearLocalUserData(): void {
  USER_LOCAL_STORAGE_KEYS.forEach((key) => removeItem(key));
  removeItem(SESSION_STORAGE_KEYS.lastLoginUsername, 'session');
}
