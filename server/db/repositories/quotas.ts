// What one account keeps against its quotas: stories, live share links and stored bytes,
// read from the player's user_stats row, which the database keeps (migrations 0006, 0013, 0018 and
// 0030) in the statements that write stories, messages, versions, folds, cards, context records,
// facts, the memory bank's rows and shares. A write that grows one of them checks the row after its
// own rows, inside its transaction: its triggers have updated the row and hold its lock until
// commit, so parallel writes of one player queue on that row and each sees the others' committed
// counts. Going over throws QuotaExceeded, which rolls the write back. What is written off the
// player's request (a reply's context record with the reply, a fold's facts, the memory bank's
// passages, terms and vectors) checks nothing: it never fails a turn, and the player's next write
// that checks is refused instead.
import { sql } from 'drizzle-orm';
import type { QuotaLimits } from '@server/kernel/config';
import type { Db } from '../client';
import { MAX_ID, rows } from './sql-values';

export type Quota = 'stories' | 'shares' | 'storage';

/** Thrown inside a writing transaction that took the account past a quota: nothing of it is kept. */
export class QuotaExceeded extends Error {
  constructor(readonly quota: Quota) {
    super(`quota exceeded: ${quota}`);
    this.name = 'QuotaExceeded';
  }
}

export interface QuotaUsage {
  stories: number;
  shares: number;
  storedBytes: number;
}

/** The quotas a write checks once its rows are written (each optional: a write checks what it grows). */
export type QuotaCheck = Partial<QuotaLimits>;

type Runner = Pick<Db, 'execute'>;

/** The account's counts: one primary-key read (zeros for an account with no row yet). */
export async function quotaUsage(runner: Runner, userId: number): Promise<QuotaUsage> {
  const [row] = await rows<{ stories: number; shares: number; storedBytes: string | number }>(
    runner,
    sql`select stories, shares, stored_bytes as "storedBytes" from user_stats where user_id = ${userId}`,
  );
  return { stories: row?.stories ?? 0, shares: row?.shares ?? 0, storedBytes: Number(row?.storedBytes ?? 0) };
}

/** The first quota `usage` is over; null when it keeps within all of `check`. */
export function quotaOver(usage: QuotaUsage, check: QuotaCheck): Quota | null {
  if (check.maxStories !== undefined && usage.stories > check.maxStories) return 'stories';
  if (check.maxShares !== undefined && usage.shares > check.maxShares) return 'shares';
  if (check.maxStoredBytes !== undefined && usage.storedBytes > check.maxStoredBytes) return 'storage';
  return null;
}

/**
 * Inside a writing transaction, after its rows: throws QuotaExceeded (rolling the write back) when
 * the account is now past a quota of `check`.
 */
export async function assertWithinQuotas(tx: Runner, userId: number, check: QuotaCheck): Promise<void> {
  const over = quotaOver(await quotaUsage(tx, userId), check);
  if (over) throw new QuotaExceeded(over);
}

/**
 * For a transaction that writes many rows at once (a branch, an import): its messages and versions
 * are counted once a statement rather than once a row (migration 0013). They are counted either way;
 * this only makes thousands of rows one update of the owner's counter instead of thousands.
 */
export async function countRowsInBulk(tx: Runner): Promise<void> {
  await tx.execute(sql`select set_config('taleweaver.bulk_rows', 'on', true)`);
}

export function createQuotasRepository(db: Db) {
  return {
    usage: (userId: number) => quotaUsage(db, userId),

    /** The account's counts when the story is theirs, else null: why a turn was refused, in one read. */
    async ownedStoryUsage(storyId: number, userId: number): Promise<QuotaUsage | null> {
      if (storyId > MAX_ID) return null;
      const [row] = await rows<{ stories: number | null; shares: number | null; storedBytes: string | number | null }>(
        db,
        sql`select q.stories, q.shares, q.stored_bytes as "storedBytes"
            from stories s left join user_stats q on q.user_id = s.user_id where s.id = ${storyId} and s.user_id = ${userId} and not s.importing`,
      );
      return row
        ? { stories: row.stories ?? 0, shares: row.shares ?? 0, storedBytes: Number(row.storedBytes ?? 0) }
        : null;
    },
  };
}
export type QuotasRepository = ReturnType<typeof createQuotasRepository>;
