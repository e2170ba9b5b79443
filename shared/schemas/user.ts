// The User entity as the API returns it. It never carries a password or its hash.
import { z } from 'zod';

export const tokenUsageSchema = z.object({
  textTokens: z.number().int().nonnegative(),
  imageTokens: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  thisMonth: z.number().int().nonnegative(),
  /** What is left of the monthly allowance (USER_MONTHLY_TOKEN_LIMIT) this month; null when unlimited. */
  balance: z.number().int().nonnegative().nullable(),
  /** This month's spend in US dollars at the server's prices (LLM_PRICE_*, the spec's image rate). */
  monthCostUsd: z.number().nonnegative(),
});
export type TokenUsage = z.infer<typeof tokenUsageSchema>;

export const userSchema = z.object({
  id: z.number().int().positive(),
  username: z.string(),
  email: z.string().nullable(),
  isAdmin: z.boolean(),
  createdAt: z.string(),
  lastActive: z.string().nullable(),
  tokenUsage: tokenUsageSchema,
});
export type User = z.infer<typeof userSchema>;
