// A session store in memory with the repository's shape, for the session service's tests: the rows,
// and spies on every call, so a test can tell a read from the database from one from memory.
import { vi } from 'vitest';
import type { SessionRecord } from '@server/db/repositories/sessions';
import type { createSessionService } from '@server/domains/account/sessions';

export function fakeSessionRepos() {
  const rows = new Map<string, SessionRecord>();
  const sessions = {
    insert: vi.fn(async (r: { tokenHash: string; userId: number; expiresAt: Date; now: Date }) => {
      rows.set(r.tokenHash, { tokenHash: r.tokenHash, userId: r.userId, expiresAt: r.expiresAt, lastSeenAt: r.now });
    }),
    findValid: vi.fn(async (tokenHash: string, now: Date) => {
      const row = rows.get(tokenHash);
      return row && row.expiresAt > now ? { ...row } : null;
    }),
    extend: vi.fn(async (tokenHash: string, expiresAt: Date, now: Date) => {
      const row = rows.get(tokenHash);
      if (row) rows.set(tokenHash, { ...row, expiresAt, lastSeenAt: now });
    }),
    delete: vi.fn(async (tokenHash: string) => void rows.delete(tokenHash)),
    deleteAllForUser: vi.fn(async (userId: number) => {
      for (const [hash, row] of rows) if (row.userId === userId) rows.delete(hash);
    }),
  };
  const users = { touchLastActive: vi.fn(async () => {}) };
  return { rows, repos: { sessions, users } as never as Parameters<typeof createSessionService>[0], sessions };
}
