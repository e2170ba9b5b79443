// Admin dashboard shapes (spec section 7): provider usage totals and the users table.
import { z } from 'zod';
import { userSchema } from './user';

export const ADMIN_MESSAGES = { adminRequired: 'Admin access required' } as const;

export const tokenTotalsSchema = z.object({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
  image: z.number().int().nonnegative(),
});
export type TokenTotals = z.infer<typeof tokenTotalsSchema>;

export const apiUsageResponseSchema = z.object({
  /** What the usage card shows as the provider, e.g. "Offline demo narrator" or "OpenAI-compatible (gpt-4o-mini)". */
  provider: z.string(),
  providerId: z.enum(['builtin', 'openai', 'anthropic']),
  model: z.string(),
  /** Shown on the card while the offline demo narrator answers: how to connect a real model. */
  notice: z.string().nullable(),
  total: tokenTotalsSchema,
  thisMonth: tokenTotalsSchema,
  /** The painter, named the same way (image tokens come from it); its notice is set while the offline demo painter draws. */
  imageProvider: z.object({
    provider: z.string(),
    providerId: z.enum(['builtin', 'openai', 'automatic1111', 'none']),
    model: z.string(),
    notice: z.string().nullable(),
  }),
});
export type ApiUsageResponse = z.infer<typeof apiUsageResponseSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(userSchema),
  metadata: z.object({
    totalUsers: z.number().int().nonnegative(),
    /** The calendar month (UTC) "this month" figures cover, as YYYY-MM. */
    currentMonth: z.string(),
  }),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;
