// Every user as a CSV for the admin's download: header first, then one chunk per id-ordered batch
// of users, so memory stays flat at any number of users. Never a hash or a session; text a
// spreadsheet would run as a formula is defused.
import type { Repositories } from '@server/db/repositories';
import { monthKey } from '@server/db/repositories/usage';
import { monthLabel, toAdminUser, type UserFigures } from './user-figures';

interface UsersCsvDeps extends UserFigures {
  repos: Pick<Repositories, 'adminUsers'>;
  now: () => Date;
}

const CSV_COLUMNS = [
  'id',
  'username',
  'email',
  'isAdmin',
  'createdAt',
  'lastActive',
  'stories',
  'turns',
  'textTokens',
  'imageTokens',
  'total',
  'thisMonth',
  'balance',
] as const;
/** Rows per database round trip while the CSV streams: big enough to be quick, small enough to stay flat. */
const CSV_BATCH = 2000;

/** Quotes a CSV field, and defuses text a spreadsheet would run as a formula (=, +, -, @, tab, CR). */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function usersCsvFilename(now: Date): string {
  return `taleweaver-users-${monthLabel(now)}.csv`;
}

/** The users CSV, header first, then one chunk per batch of users; never a hash or a session. */
export async function* usersCsv(deps: UsersCsvDeps): AsyncGenerator<string> {
  const month = monthKey(deps.now());
  yield CSV_COLUMNS.join(',') + '\r\n';
  let afterId = 0;
  for (;;) {
    const batch = await deps.repos.adminUsers.batchAfter(afterId, CSV_BATCH, month);
    if (batch.length === 0) return;
    let chunk = '';
    for (const row of batch) {
      const u = toAdminUser(row, deps);
      const t = u.tokenUsage;
      chunk +=
        [
          u.id,
          u.username,
          u.email,
          u.isAdmin,
          u.createdAt,
          u.lastActive,
          u.stories,
          u.turns,
          t.textTokens,
          t.imageTokens,
          t.total,
          t.thisMonth,
          t.balance,
        ]
          .map(csvField)
          .join(',') + '\r\n';
    }
    yield chunk;
    afterId = batch[batch.length - 1]!.id;
  }
}
