// Safe access to localStorage / sessionStorage. Storage throws in some private modes and when
// full; a failed write must never break a login or a page render, so every call is guarded.

type StorageKind = 'local' | 'session';

function storageOf(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readItem(key: string, kind: StorageKind = 'local'): string | null {
  try {
    return storageOf(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeItem(key: string, value: string, kind: StorageKind = 'local'): void {
  try {
    storageOf(kind)?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the value is a convenience, losing it is acceptable.
  }
}

export function removeItem(key: string, kind: StorageKind = 'local'): void {
  try {
    storageOf(kind)?.removeItem(key);
  } catch {
    // Same as writeItem: nothing useful to do.
  }
}

/** Parses stored JSON; anything unreadable counts as absent rather than crashing the caller. */
export function readJson(key: string, kind: StorageKind = 'local'): unknown {
  const raw = readItem(key, kind);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}
