// The admin dashboard's data: provider usage totals from the ledger, every user with their token
// usage, and the same as a CSV download.
import { describeImageProvider } from '@server/ai/image/registry';
import type { ImageConfig } from '@server/ai/image/types';
import { describeProvider } from '@server/ai/llm/registry';
import type { LlmConfig } from '@server/config';
import type { Repositories } from '@server/db/repositories';
import { startOfUtcMonth } from '@server/db/repositories/usage';
import { AppError, unauthenticated } from '@server/errors';
import { ADMIN_MESSAGES, type AdminUsersResponse, type ApiUsageResponse } from '@shared/schemas/admin';
import { ERROR_CODES } from '@shared/schemas/common';
import type { User } from '@shared/schemas/user';
import type { AccountService } from './accounts';

interface AdminDeps {
  repos: Repositories;
  accounts: AccountService;
  llm: LlmConfig;
  image: ImageConfig;
  now: () => Date;
}

const CSV_COLUMNS = ['id', 'username', 'email', 'isAdmin', 'createdAt', 'lastActive', 'textTokens', 'imageTokens', 'total', 'thisMonth', 'balance'] as const;

/** Quotes a CSV field, and defuses text a spreadsheet would run as a formula. */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function monthLabel(now: Date): string {
  const start = startOfUtcMonth(now);
  return `${start.getUTCFullYear()}-${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function createAdminService({ repos, accounts, llm, image, now }: AdminDeps) {
  return {
    async requireAdmin(userId: number): Promise<void> {
      const user = await repos.users.findById(userId);
      if (!user) throw unauthenticated();
      if (!user.isAdmin) throw new AppError(403, ERROR_CODES.forbidden, ADMIN_MESSAGES.adminRequired);
    },

    async apiUsage(): Promise<ApiUsageResponse> {
      const totals = await repos.usage.totalsAll(now());
      const imageProvider = { ...describeImageProvider(image), providerId: image.provider, model: image.model };
      return { ...describeProvider(llm), providerId: llm.provider, model: llm.model, ...totals, imageProvider };
    },

    async users(): Promise<AdminUsersResponse> {
      const at = now();
      const [records, usage] = await Promise.all([repos.users.listAll(), repos.usage.totalsByUser(at)]);
      const empty = { textTokens: 0, imageTokens: 0, thisMonth: 0 };
      const users = await Promise.all(records.map((record) => accounts.toPublicUser(record, usage.get(record.id) ?? empty)));
      return { users, metadata: { totalUsers: users.length, currentMonth: monthLabel(at) } };
    },

    async usersCsv(): Promise<{ filename: string; body: string }> {
      const { users, metadata } = await this.users();
      const row = (u: User) =>
        [u.id, u.username, u.email, u.isAdmin, u.createdAt, u.lastActive, u.tokenUsage.textTokens, u.tokenUsage.imageTokens, u.tokenUsage.total, u.tokenUsage.thisMonth, u.tokenUsage.balance]
          .map(csvField)
          .join(',');
      const body = [CSV_COLUMNS.join(','), ...users.map(row)].join('\r\n') + '\r\n';
      return { filename: `taleweaver-users-${metadata.currentMonth}.csv`, body };
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
